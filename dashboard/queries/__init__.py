"""The dashboard's query layer: every SQL statement the pages run, callable without Streamlit."""
