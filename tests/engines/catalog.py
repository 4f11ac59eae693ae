"""A stable text snapshot of the objects in a PostgreSQL database (user schemas only).

Tests compare it with expected.catalog.txt files that were read against the server and the
reference: the objects, not the DDL text, are what must match.
"""

from __future__ import annotations

QUERIES = {
    "table": """
        SELECT n.nspname || '.' || c.relname || ' ' || c.relkind::text || coalesce(' ' || pg_get_partkeydef(c.oid), '')
               || CASE WHEN c.relpersistence = 'u' THEN ' unlogged' ELSE '' END
          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f') AND {user}""",
    "column": """
        SELECT n.nspname || '.' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
               || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
               || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
               || CASE a.attidentity WHEN 'a' THEN ' identity always' WHEN 'd' THEN ' identity by default' ELSE '' END
               || CASE a.attgenerated WHEN 's' THEN ' generated stored' ELSE '' END
               || coalesce(' collate ' || NULLIF(co.collname, 'default'), '')
          FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
          LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
          LEFT JOIN pg_collation co ON co.oid = a.attcollation AND a.attcollation <> 0
         WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'c') AND {user}""",
    "constraint": """
        SELECT n.nspname || '.' || c.relname || ' ' || con.conname || ' ' || pg_get_constraintdef(con.oid)
          FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE {user} AND con.conislocal""",
    "partition": """
        SELECT pn.nspname || '.' || p.relname || ' <- ' || n.nspname || '.' || c.relname || ' '
               || pg_get_expr(c.relpartbound, c.oid)
          FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_namespace n ON n.oid = c.relnamespace
          JOIN pg_class p ON p.oid = i.inhparent JOIN pg_namespace pn ON pn.oid = p.relnamespace
         WHERE c.relispartition AND c.relkind IN ('r', 'p') AND {user}""",
    "index": """
        SELECT pg_get_indexdef(i.indexrelid)
          FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE {user}""",
    "sequence": """
        SELECT schemaname || '.' || sequencename || ' ' || data_type::text || ' start ' || start_value
               || ' min ' || min_value || ' max ' || max_value || ' inc ' || increment_by
               || CASE WHEN cycle THEN ' cycle' ELSE '' END || ' cache ' || cache_size
          FROM pg_sequences WHERE schemaname NOT IN ('pg_catalog', 'information_schema')""",
    "view": """
        SELECT n.nspname || '.' || c.relname || ' ' || regexp_replace(pg_get_viewdef(c.oid), '\\s+', ' ', 'g')
          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('v', 'm') AND {user}""",
    "comment": """
        SELECT n.nspname || '.' || c.relname || coalesce('.' || a.attname, '') || ' ' || d.description
          FROM pg_description d JOIN pg_class c ON c.oid = d.objoid AND d.classoid = 'pg_class'::regclass
          JOIN pg_namespace n ON n.oid = c.relnamespace
          LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = d.objsubid AND d.objsubid > 0
         WHERE {user}""",
    "trigger": """
        SELECT pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
          JOIN pg_namespace n ON n.oid = c.relnamespace WHERE NOT t.tgisinternal AND {user}""",
    "function": """
        SELECT n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') '
               || p.prokind::text || ' ' || coalesce(pg_get_function_result(p.oid), '')
          FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE {user}""",
    "type": """
        SELECT n.nspname || '.' || t.typname || ' ' || t.typtype::text
               || coalesce(' (' || (SELECT string_agg(e.enumlabel, ', ' ORDER BY e.enumsortorder)
                                      FROM pg_enum e WHERE e.enumtypid = t.oid) || ')', '')
          FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
         WHERE t.typtype IN ('e', 'c') AND (t.typtype = 'e' OR (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c')
           AND {user}""",
    "schema": """SELECT nspname FROM pg_namespace n WHERE {user} AND nspname <> 'public'""",
}
USER = "n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND n.nspname NOT LIKE 'pg_temp%' AND n.nspname NOT LIKE 'pg_toast_temp%'"


def snapshot(conn) -> str:
    lines = []
    with conn.cursor() as cur:
        for kind, sql in QUERIES.items():
            cur.execute(sql.format(user=USER))
            for (row,) in sorted(cur.fetchall(), key=lambda r: r[0] or ""):
                lines.append(f"{kind}: {row}")
    return "\n".join(lines) + "\n"
