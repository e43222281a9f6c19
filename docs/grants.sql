-- Privileges of the application's database role. Run as the owner of the tables, after every
-- "manage.py migrate". The application role owns nothing: it reads and writes the ordinary
-- tables, and may only read and append to the ledger tables (those that carry the append-only
-- trigger: register entries and every history table), so it can neither change nor remove a
-- ledger row, nor switch the triggers off.
GRANT USAGE ON SCHEMA public TO ledgers_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ledgers_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ledgers_app;
DO $$
DECLARE
    ledger regclass;
BEGIN
    FOR ledger IN
        SELECT DISTINCT tgrelid::regclass FROM pg_trigger
        WHERE tgfoid = 'ledgers_refuse_change()'::regprocedure
    LOOP
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %s FROM ledgers_app', ledger);
    END LOOP;
END $$;
