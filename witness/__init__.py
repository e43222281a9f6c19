"""A transparency-log witness that a regulator runs apart from the casino (docs/operations.md):
it cosigns a register's checkpoint (c2sp.org/tlog-witness) only after checking the casino's
signature and that the checkpoint extends the last one it cosigned for that register, keeps every
checkpoint it cosigned, and never cosigns two that diverge. It needs Python and `cryptography`
only (psycopg for a PostgreSQL store), never the casino's code nor its data."""
