# Quarto runs this after rendering the site (`post-render` in _quarto.yml): it takes the Mermaid diagrams' source
# and the SVG pictures' labels out of the search index, so a search finds prose (Note [Search index] in
# tinytensor/_nbdoc.py). Any problem leaves the index as it is and the build goes on.
try:
    from tinytensor._nbdoc import clean_search_index
    print(f'search index: {clean_search_index()} diagram(s) and picture(s) taken out')
except Exception as e: print(f'search index left as is: {type(e).__name__}: {e}')
