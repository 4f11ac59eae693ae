"""Native typed classes against msgspec Structs: the same build / rules / write of a 10-column CREATE TABLE
tree (a JDDL-like dict), CPU instructions by callgrind when run under it, else CPU time."""
import gc, os, subprocess, sys, time
import orjson, pyimpl, cyimpl

def tree(k):
    cols = []
    for i in range(10):
        c = {"fmt": "%{name}I %{coltype}T %{default}s %{not_null}s", "name": f"col_{k}_{i}",
             "coltype": {"typename": ["integer", "varchar", "numeric", "text", "mytype"][i % 5],
                         "typmod": "(10, 2)" if i % 3 == 0 else ""},
             "default": {"fmt": "DEFAULT %{default}s", "present": i % 4 == 0, "default": "nextval('s_%d')" % k},
             "not_null": "NOT NULL" if i % 2 else ""}
        if i == 7:
            c["collation"] = "C"
        cols.append(c)
    return {"fmt": "CREATE TABLE %{if_not_exists}s %{identity}D (%{table_elements:, }s)",
            "identity": {"schemaname": "public", "objname": f"Tab_{k}"}, "if_not_exists": "",
            "table_elements": {"fmt": "%{elements:, }s", "elements": cols}}

raw = [orjson.dumps(tree(k)) for k in range(2000)]
docs = [orjson.loads(r) for r in raw]
assert pyimpl.whole(docs[0]) == cyimpl.whole(docs[0]), (pyimpl.whole(docs[0]), cyimpl.whole(docs[0]))
under = os.environ.get("CG")
def run(name, fn, arg):
    for x in arg[:200]: fn(x)
    gc.collect()
    if under:
        subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], stdout=subprocess.DEVNULL)
        for x in arg: fn(x)
        subprocess.run(["callgrind_control", "-i", "off", str(os.getpid())], stdout=subprocess.DEVNULL)
        print(name, file=sys.stderr); sys.stderr.flush(); time.sleep(0.5)
    else:
        best = 1e9
        for _ in range(7):
            t = time.thread_time(); [fn(x) for x in arg]; best = min(best, time.thread_time() - t)
        print(f"{name:28s} {best / len(arg) * 1e6:8.2f} µs a tree")
which = sys.argv[1:] or ["loads", "py.whole", "cy.whole", "py.build", "cy.build", "py.write", "cy.write", "py.rules", "cy.rules"]
tp = [pyimpl.build_table(d) for d in docs]; tc = [cyimpl.build_table(d) for d in docs]
table = {"loads": (orjson.loads, raw), "py.whole": (pyimpl.whole, docs), "cy.whole": (cyimpl.whole, docs),
         "py.build": (pyimpl.build_table, docs), "cy.build": (cyimpl.build_table, docs),
         "py.write": (pyimpl.write_table, tp), "cy.write": (cyimpl.write_table, tc),
         "py.rules": (pyimpl.rules, tp), "cy.rules": (cyimpl.rules, tc)}
for w in which:
    run(w, *table[w])
