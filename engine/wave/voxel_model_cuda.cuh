// The model's tables a voxel step reads on the device and the scalars of its update: one home
// for their upload and for the model's part of a fused step's arguments, which the single run's
// engine (time_stepper_cuda.cu) and the batched shots (batched_shots_cuda.cu) both launch with.
#pragma once

#include <cstdint>
#include <vector>

#include "core/device_buffer.cuh"
#include "wave/lame_tables.hpp"
#include "wave/update_coefficients.hpp"
#include "wave/voxel_element_kernel.hpp"
#include "wave/wave_kernel_args.cuh"
#include "wave/wave_problem.hpp"

namespace voxwave::cuda {

template <class Real>
struct VoxelModelDevice {
    DeviceBuffer<std::uint8_t> ids;  // element material ids, x fastest
    DeviceBuffer<Real> a;            // dt^2 / m per node (0 where fixed or massless)
    DeviceBuffer<Real> ih, mh;       // 1 / (1 + h) and 1 - h per node; empty where h is uniform
    DeviceBuffer<Real> lambda, mu;   // [256] by material id (0 for void); empty for TCOVFEM
    Real s0{}, s1{}, s2{};           // the element's mode scales (VFEM or OVFEM)
    Real ih0{1}, mh0{1};             // the uniform 1 / (1 + h) and 1 - h
    Real b{}, keep{1};               // stiffness damping beta / dt, keep = 1 + b (w = keep u - b u^{n-1})

    // The tables of `p` (coef: update_coefficients(p), rounded to Real). `moment_element`: the
    // Lame tables and mode scales of VFEM and OVFEM too (TCOVFEM's element has factors of its own).
    void upload(const WaveProblem& p, const UpdateCoefficients<Real>& coef, bool moment_element) {
        ids = DeviceBuffer<std::uint8_t>(p.grid.ids);
        a = DeviceBuffer<Real>(coef.dt2_inv_mass);
        ih0 = coef.inv_one_plus_h.empty() ? Real(1) : coef.inv_one_plus_h[0];
        mh0 = coef.one_minus_h.empty() ? Real(1) : coef.one_minus_h[0];
        if (p.boundary.has_node_damping()) {
            ih = DeviceBuffer<Real>(coef.inv_one_plus_h);
            mh = DeviceBuffer<Real>(coef.one_minus_h);
        }
        b = static_cast<Real>(p.rayleigh.beta / p.dt);
        keep = Real(1) + b;
        if (!moment_element) return;
        const ModeScales sc = mode_scales(p.element_method(), p.grid.spacing);
        s0 = static_cast<Real>(sc.constant);
        s1 = static_cast<Real>(sc.linear);
        s2 = static_cast<Real>(sc.bilinear);
        const LameTables<Real> lame = lame_tables<Real>(p.materials);
        lambda = DeviceBuffer<Real>(lame.lambda);
        mu = DeviceBuffer<Real>(lame.mu);
    }

    // A fused step's arguments with the model's part set (its size, tables and update scalars);
    // the state, the sources and receivers and TCOVFEM's fields are the caller's.
    FusedStepArgs<Real> fused_args(const WaveProblem& p) const {
        FusedStepArgs<Real> args{};
        args.nx = p.grid.n[0];
        args.ny = p.grid.n[1];
        args.nz = p.grid.n[2];
        args.ids = ids.get();
        args.lambda = lambda.get();
        args.mu = mu.get();
        args.s0 = s0;
        args.s1 = s1;
        args.s2 = s2;
        args.a = a.get();
        args.ih = ih.size() ? ih.get() : nullptr;
        args.mh = mh.size() ? mh.get() : nullptr;
        args.ih0 = ih0;
        args.mh0 = mh0;
        args.keep = keep;
        args.b = b;
        return args;
    }
};

}  // namespace voxwave::cuda
