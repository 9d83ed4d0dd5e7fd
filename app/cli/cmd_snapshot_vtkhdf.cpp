// `voxwave-cli snapshot-vtkhdf RESULT.h5 --index I [--field u|v] --out S.vtkhdf`: one wavefield
// snapshot of a result file as VTKHDF ImageData, which VTK's vtkHDFReader (ParaView 5.10 and
// later) opens without the XDMF file (docs/architecture.md#wavefield-snapshots).
#include <cstdio>

#include "cli_common.hpp"
#include "commands.hpp"
#include "scene/snapshots.hpp"

namespace voxwave::cli {

namespace {

struct Options {
    std::string result, field = "u", out;
    std::size_t index = 0;
    bool quiet = false;
};

int write_vtkhdf(const Options& o) {
    check_output_path(o.out);
    const SnapshotFrame frame = read_snapshot(o.result, o.field, o.index);
    write_snapshot_vtkhdf(o.out, frame);
    if (!o.quiet)
        std::printf("snapshot  %zu of %s: %s at step %lld (t = %.6g s), %d x %d x %d nodes\nwritten   %s\n", o.index,
                    o.result.c_str(), o.field.c_str(), static_cast<long long>(frame.step), frame.time,
                    frame.grid.count[0], frame.grid.count[1], frame.grid.count[2], o.out.c_str());
    return kOk;
}

}  // namespace

std::function<int()> add_snapshot_vtkhdf_command(CLI::App& app) {
    auto o = std::make_shared<Options>();
    auto* sub = app.add_subcommand("snapshot-vtkhdf",
                                   "Write one wavefield snapshot of a result file as VTKHDF ImageData (ParaView, VTK)");
    sub->add_option("result", o->result, "Result file with snapshots (run.snapshots)")->required();
    sub->add_option("--index", o->index, "Snapshot number, from 0 (the order of /snapshots/time)")->required();
    sub->add_option("--field", o->field, "u (displacement) or v (velocity)")->check(CLI::IsMember({"u", "v"}));
    sub->add_option("--out", o->out, "Output file (.vtkhdf or .hdf)")->required();
    sub->add_flag("--quiet,-q", o->quiet, "Print nothing but errors");
    return [o] { return write_vtkhdf(*o); };
}

}  // namespace voxwave::cli
