"""The Streamlit dashboard (``ofc dashboard``): pages in ``views``, SQL in ``queries``."""
