"""Keyboard habits Streamlit's widgets lack, added by one small script in the page.

Streamlit's date field applies a typed date only when the focus leaves the
widget (a click elsewhere, or Tab past its calendar button): Enter did
nothing, so a typed "To" date seemed to need another click. The script moves
the focus from the field to the widget itself on Enter, which applies the
date as leaving it does. The script is our own constant text (no data in
it) and installs its listener once per page.
"""

from __future__ import annotations

import streamlit as st

SCRIPT = """<script>
if (!window.ofcDateEnter) {
  window.ofcDateEnter = true;
  document.addEventListener("keydown", (event) => {
    const field = event.key === "Enter" && event.target.closest
      && event.target.closest("[data-testid='stDateInputField']");
    if (!field) return;
    const widget = field.closest("[data-testid='stDateInput']");
    widget.tabIndex = -1;
    widget.focus();  /* focus leaves the field: Streamlit applies the date */
  }, true);
}
</script>"""


def install() -> None:
    """Add the script to the page (each rerun draws it; it listens once)."""
    st.html(SCRIPT, unsafe_allow_javascript=True)
