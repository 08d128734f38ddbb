"""The rules engine: hand strength, fouls, royalties, settlement and Fantasyland, column-wise
over whole batches of hands (docs/rules.md R1-R9, in docs/rules.md). Imports only ``ofc_core``."""
