"PyTorch's tensor core, rebuilt in Python as a book you can run."
__version__ = "0.1.0"
