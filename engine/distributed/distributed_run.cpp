#include "distributed/distributed_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <sstream>

#include "core/backend.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "wave/probe_recording.hpp"
#include "wave/tcovfem_int8.hpp"
#include "wave/wave_run.hpp"

namespace voxwave {

int device_for_local_rank(int local_rank, int device_count) {
    return device_count > 0 ? local_rank % device_count : -1;
}

namespace {

int exit_code_of(const std::exception& e) {
    if (dynamic_cast<const InputError*>(&e)) return 1;
    if (dynamic_cast<const Cancelled*>(&e)) return 130;
    return 3;
}

}  // namespace

SlabForceLayout SlabSetup::layout() const {
    const VoxelGrid& g = slab.problem.grid;
    return {g.node_count(), std::size_t(g.n[0] + 1) * std::size_t(g.n[1] + 1), g.n[2]};
}

SlabSetup prepare_slab(const WaveProblem& original, const MpiWorld& world, const DistributedOptions& options) {
    SlabSetup s;
    s.turn = longest_axis_last(original.grid);
    if (!s.turn.identity()) s.turned = std::make_unique<WaveProblem>(turn_axes(original, s.turn));
    const WaveProblem& whole = s.turned ? *s.turned : original;
    s.slabs = partition_slabs(whole.grid, world.size());
    const Slab& mine = s.slabs[std::size_t(world.rank())];
    assert_run_rules(whole);
    s.backend = resolve_backend(whole.backend, s.backend_note);
    if (!world.all(s.backend == Backend::Cuda) && !world.all(s.backend == Backend::Cpu))
        throw InputError("", "backend", "some ranks have a CUDA device and others do not; pass --backend cpu or cuda");
    s.slab = make_slab_problem(whole, mine);
    if (s.backend == Backend::Cpu) {
        s.exchange = std::make_unique<MpiForceExchange>(world, mine);
        return s;
    }
    std::string why;
    s.device = device_for_local_rank(world.local_rank(), int(cuda_devices(&why).size()));
    s.transport = options.halo == HaloTransport::Auto ? (nccl_built() ? HaloTransport::Nccl : HaloTransport::HostStaged)
                                                      : options.halo;
    if (s.transport == HaloTransport::Nccl)
        s.exchange = make_nccl_force_exchange(world, mine, s.device);
    else
        s.exchange = std::make_unique<MpiForceExchange>(world, mine);
    if (whole.method ==
        Method::Tcovfem)  // shared nodes need both sides' FP64 diagonal; only the Tensor Core part travels
        s.tcovfem_diagonal = restrict_to_slab(
            tcovfem_node_diagonal(whole.grid, tcovfem_material_factors(whole.materials, whole.grid.spacing)),
            whole.grid, mine);
    return s;
}

DistributedRun run_wave_distributed(const WaveProblem& whole, const MpiWorld& world, const ProgressFn& progress,
                                    const DistributedOptions& options) {
    DistributedRun out;
    // Too many ranks: an InputError on every rank, before anything collective can hang.
    check_slab_count(slab_axis_planes(whole.grid), world.size());
    SlabSetup setup;
    try {
        setup = prepare_slab(whole, world, options);
    } catch (const std::exception& e) {
        world.abort(
            "voxwave: rank " + std::to_string(world.rank()) + " of " + std::to_string(world.size()) + ": " + e.what(),
            exit_code_of(e));
    }
    out.slabs = setup.slabs;
    const SlabProblem& slab = setup.slab;
    SlabHooks hooks;
    hooks.cuda_device = setup.device;
    hooks.exchange = setup.exchange.get();
    if (!setup.tcovfem_diagonal.empty()) hooks.tcovfem_diagonal = &setup.tcovfem_diagonal;

    Result local;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        world.barrier();
        // Fault injection for the tests of the job-wide stop: this rank fails as the run starts,
        // while the others are already waiting for its forces.
        if (const char* f = std::getenv("VOXWAVE_TEST_FAIL_RANK"); f && std::atoi(f) == world.rank())
            throw RuntimeError("injected failure (VOXWAVE_TEST_FAIL_RANK)");
        local = run_wave(slab.problem, world.rank() == 0 ? progress : ProgressFn{}, nullptr, hooks);
    } catch (const std::exception& e) {
        world.abort(
            "voxwave: rank " + std::to_string(world.rank()) + " of " + std::to_string(world.size()) + ": " + e.what(),
            exit_code_of(e));
    }
    const double wall = world.max(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());

    // Gather: each rank's receivers as [local receiver][displacement nt*3 | velocity nt*3].
    const std::size_t nt = std::size_t(whole.steps), per = 6 * nt;
    std::vector<double> block(slab.receiver_of.size() * per);
    for (std::size_t i = 0; i < slab.receiver_of.size(); ++i) {
        std::copy_n(local.displacement.begin() + std::ptrdiff_t(i * nt * 3), nt * 3,
                    block.begin() + std::ptrdiff_t(i * per));
        std::copy_n(local.velocity.begin() + std::ptrdiff_t(i * nt * 3), nt * 3,
                    block.begin() + std::ptrdiff_t(i * per + nt * 3));
    }
    std::vector<long long> which(slab.receiver_of.begin(), slab.receiver_of.end());
    const std::vector<double> all_blocks = world.gather(block);
    const std::vector<long long> all_which = world.gather(which);

    Result& r = out.result;
    r.method = to_string(whole.method);
    r.precision = to_string(whole.precision);
    r.backend = to_string(setup.backend);
    r.stages = whole.stages;
    r.spacing = whole.grid.spacing;
    r.dt = whole.dt;
    r.steps = whole.steps;
    r.wall_seconds = wall;
    for (const auto& rec : whole.receivers) {
        r.receiver_names.push_back(rec.name);
        r.receiver_positions.push_back(rec.snapped);
    }
    if (world.rank() == 0) {
        if (all_which.size() != whole.receivers.size())
            throw RuntimeError("distributed run: " + std::to_string(all_which.size()) + " receivers gathered, " +
                               std::to_string(whole.receivers.size()) + " expected");
        r.time = local.time;
        r.displacement.assign(whole.receivers.size() * nt * 3, 0.0);
        r.velocity.assign(whole.receivers.size() * nt * 3, 0.0);
        for (std::size_t i = 0; i < all_which.size(); ++i) {
            const std::size_t g = std::size_t(all_which[i]);
            std::copy_n(all_blocks.begin() + std::ptrdiff_t(i * per), nt * 3,
                        r.displacement.begin() + std::ptrdiff_t(g * nt * 3));
            std::copy_n(all_blocks.begin() + std::ptrdiff_t(i * per + nt * 3), nt * 3,
                        r.velocity.begin() + std::ptrdiff_t(g * nt * 3));
        }
        turn_result_back(r, setup.turn, whole);
        record_probes(whole, r);
    }
    std::ostringstream note;
    note << setup.backend_note << "\n"
         << "distributed: " << world.size() << " ranks, slabs of element planes along "
         << "xyz"[setup.turn.from[2]] << (setup.turn.identity() ? "" : " (the longest axis; the model is turned)")
         << ":";
    for (const Slab& s : out.slabs) note << " [" << s.k0 << "," << s.k1 << ")";
    if (setup.backend == Backend::Cuda) {
        note << "\nhalo: " << to_string(setup.transport) << ", "
             << setup.exchange->bytes_per_step(whole.precision == Precision::Fp64, setup.layout())
             << " bytes per step on rank 0";
    } else {
        note << "\nhalo: MPI (host memory)";
    }
    out.note = note.str();
    return out;
}

}  // namespace voxwave
