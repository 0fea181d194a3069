"The parts of chapters too long for one module: each is written by its chapter's notebook with `#| export _parts.<name>` and re-exported by the chapter's own module (Note [Module parts])."
