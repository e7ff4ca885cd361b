-- No JIT compilation for this database's sessions. The service's statements run in
-- milliseconds, but the planner compiles any plan it costs above jit_above_cost, and a list or
-- search on a big Account is costed that high (more so without statistics): compiling took
-- 50 ms to 5 s on every execution. The service turns JIT off on each connection it opens; this
-- covers the connections a transaction pooler opens, which drop startup options. A role that
-- does not own the database cannot set this: it is then left to the connections (a notice
-- says so) rather than failing the migration. See docs/decisions/0050-no-jit.md.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'jit') THEN
    EXECUTE format('ALTER DATABASE %I SET jit = off', current_database());
  END IF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'jit stays on for this database: its owner can run ALTER DATABASE % SET jit = off', current_database();
END
$$;
