#!/usr/bin/env bash
# run.snapshots through the CLI: the result gets /snapshots and an XDMF file beside it that an XML
# parser reads (every grid with its time, topology, geometry and HDF5 references);
# snapshot-vtkhdf writes one snapshot; bad snapshot keys, indices and STL surfaces are one-line
# errors with no output file.
source "$(dirname "$0")/lib.sh" "$1" "$2"

block="$SRC/assets/scenes/homogeneous_block.json"
derive() { derive_scene "$block" "$@"; }

derive snap 's["run"]["snapshots"] = {"every": 10, "fields": ["u", "v"], "stride": 2, "region": {"min": [0.02, 0.02, 0.0], "max": [0.08, 0.06, 0.04]}}'
"$CLI" run "$WORK/snap.json" --steps 31 --out "$WORK/snap.h5" -q || fail "run with snapshots failed"
[ -s "$WORK/snap.xmf" ] || fail "no XDMF file beside the result"
$PY - "$WORK/snap.xmf" <<'PYEOF' || fail "XDMF layout"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "Xdmf", root.tag
series = root.find("Domain/Grid")
assert series.get("CollectionType") == "Temporal"
grids = series.findall("Grid")
assert len(grids) == 3, len(grids)              # steps 10, 20, 30 of 31
for g in grids:
    assert float(g.find("Time").get("Value")) > 0
    # region 0.02..0.08 x 0.02..0.06 x 0..0.04 at 2 mm, stride 2: 16 x 11 x 11 nodes (z y x order)
    assert g.find("Topology").get("Dimensions") == "11 11 16", g.find("Topology").get("Dimensions")
    origin, spacing = [list(map(float, d.text.split())) for d in g.findall("Geometry/DataItem")]
    assert abs(origin[0]) < 1e-12 and abs(origin[1] - 0.02) < 1e-12 and abs(origin[2] - 0.02) < 1e-12, origin
    assert all(abs(d - 0.004) < 1e-12 for d in spacing), spacing
    names = [a.get("Name") for a in g.findall("Attribute")]
    assert names == ["u", "v"], names
    for a in g.findall("Attribute"):
        item = a.find("DataItem")
        assert item.get("Format") == "HDF" and item.get("Dimensions") == "11 11 16 3"
        assert item.text.strip().startswith("snap.h5:/snapshots/" + a.get("Name") + "/")
PYEOF

"$CLI" snapshot-vtkhdf "$WORK/snap.h5" --index 2 --field v --out "$WORK/s.vtkhdf" -q || fail "snapshot-vtkhdf failed"
[ -s "$WORK/s.vtkhdf" ] || fail "snapshot-vtkhdf wrote nothing"
expect_error index-out-of-range 1 "snap.h5: /snapshots: no snapshot 3 \(the file holds 3" "$WORK/x.vtkhdf" -- \
  snapshot-vtkhdf "$WORK/snap.h5" --index 3 --out "$WORK/x.vtkhdf" -q
expect_error unknown-field 2 "field" "$WORK/x.vtkhdf" -- snapshot-vtkhdf "$WORK/snap.h5" --index 0 --field w --out "$WORK/x.vtkhdf" -q
"$CLI" run "$block" --steps 5 --out "$WORK/plain.h5" -q || fail "plain run failed"
[ -e "$WORK/plain.xmf" ] && fail "a run without snapshots wrote an XDMF file"
expect_error no-snapshots 1 "plain.h5: /snapshots: the file holds no snapshots" "$WORK/x.vtkhdf" -- \
  snapshot-vtkhdf "$WORK/plain.h5" --index 0 --out "$WORK/x.vtkhdf" -q

derive bad_field 's["run"]["snapshots"] = {"every": 10, "fields": ["p"]}'
expect_error bad-field 1 "bad_field.json: run\.snapshots\.fields\[0\]: unknown field 'p'" "$WORK/out.h5" -- \
  run "$WORK/bad_field.json" --steps 20 --out "$WORK/out.h5" -q
derive bad_stride 's["run"]["snapshots"] = {"every": 10, "stride": 0}'
expect_error bad-stride 1 "bad_stride.json: run\.snapshots\.stride: " "$WORK/out.h5" -- \
  run "$WORK/bad_stride.json" --steps 20 --out "$WORK/out.h5" -q
derive bad_region 's["run"]["snapshots"] = {"every": 10, "region": {"min": [0, 0, 0], "max": [1, 0.1, 0.05]}}'
expect_error bad-region 1 "bad_region.json: run\.snapshots\.region\.max: outside the model box" "$WORK/out.h5" -- \
  run "$WORK/bad_region.json" --steps 20 --out "$WORK/out.h5" -q
expect_error every-beyond-run 1 "run\.snapshots\.every: .*the run has 5 steps" "$WORK/out.h5" -- \
  run "$WORK/snap.json" --steps 5 --out "$WORK/out.h5" -q
[ -e "$WORK/out.xmf" ] && fail "a refused run wrote an XDMF file"

# Under mpiexec each rank samples the points it owns and rank 0 gathers them (the values are
# checked against one process in tests/mpi): the same XDMF description and traces as the one-process
# run, and a snapshot that snapshot-vtkhdf reads.
if MPIEXEC=$(command -v mpiexec); then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1
  mkdir -p "$WORK/one" "$WORK/mpi"
  "$CLI" run "$WORK/snap.json" --steps 31 --backend cpu -q -o "$WORK/one/snap.h5" || fail "one-process run failed"
  "$MPIEXEC" -np 2 "$CLI" run "$WORK/snap.json" --steps 31 --backend cpu -q -o "$WORK/mpi/snap.h5" \
    >/dev/null 2>"$WORK/mpi.err" || fail "snapshots under mpiexec: exit $?: $(cat "$WORK/mpi.err")"
  cmp -s "$WORK/one/snap.xmf" "$WORK/mpi/snap.xmf" || fail "snapshots under mpiexec: another XDMF description"
  "$CLI" compare "$WORK/mpi/snap.h5" "$WORK/one/snap.h5" --tolerance 1e-12 >/dev/null ||
    fail "snapshots under mpiexec: other traces"
  "$CLI" snapshot-vtkhdf "$WORK/mpi/snap.h5" --index 2 --field v --out "$WORK/mpi/s.vtkhdf" -q ||
    fail "snapshot-vtkhdf of the distributed result failed"
  [ -s "$WORK/mpi/s.vtkhdf" ] || fail "snapshot-vtkhdf of the distributed result wrote nothing"
fi

# An STL surface with a missing facet: refused, naming the scene field and the STL file.
$PY - "$WORK/open.stl" <<'PYEOF'
import sys
c = [(0,0,0),(1,0,0),(0,1,0),(1,1,0),(0,0,1),(1,0,1),(0,1,1),(1,1,1)]
quads = [(0,2,3,1),(4,5,7,6),(0,1,5,4),(2,6,7,3),(0,4,6,2),(1,3,7,5)]
tris = [t for q in quads for t in ((q[0],q[1],q[2]),(q[0],q[2],q[3]))][:-1]
with open(sys.argv[1], "w") as f:
    f.write("solid open\n")
    for t in tris:
        f.write("facet normal 0 0 0\nouter loop\n")
        for v in t: f.write("vertex %g %g %g\n" % tuple(0.01 * x + 0.02 for x in c[v]))
        f.write("endloop\nendfacet\n")
    f.write("endsolid open\n")
PYEOF
derive open_stl 's["shapes"] = [{"type": "stl", "file": "open.stl", "material": s["materials"][0]["name"]}]'
expect_error open-stl 1 "open_stl.json: shapes\[0\]\.file: .*open.stl: not a closed surface: 3 edges are not shared by exactly two triangles" \
  "$WORK/out.h5" -- run "$WORK/open_stl.json" --steps 5 --out "$WORK/out.h5" -q
finish
