"""The dashboard's pages: each module's ``render(context)`` draws one page."""
