"""The reports' pure rules, with no Django import: the Merkle tree of a gaming day's
ledger (:mod:`.merkle`) and the day's signed digest (:mod:`.digest`)."""
