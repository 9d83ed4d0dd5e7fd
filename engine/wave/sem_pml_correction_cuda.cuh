// The convolutional PML of the spectral voxel elements on the CUDA engine (sem_stepper_cuda.hpp):
// the CPU pass's formulation and arithmetic (sem_pml_correction_cpu.hpp,
// sem_pml_element_kernel.hpp) on device arrays of the layer's tables (pml_tables on the GLL
// grid), in FP64 whatever the engine's precision; memory only for the layer's elements, nodes
// and poles (per element pole 9 (p + 1)^3 convolutions, per element the previous gradient with
// Rayleigh's beta; without it the previous gradient is u-'s, recomputed).
//
// Two kernels a step (sem_pml_kernel.cuh), after the column sweep has written u+ with the
// interior forces (the sweep never holds f, and stays as it is for the whole model): the element
// pass, a block of one thread a GLL point per layer element, moves u+ by the layer's force change
// through the update's factors; the node pass, one thread a layer node, recovers the whole force
// term from that u+ and replaces u+ by the central difference of y = S u. The sources are added
// after both (the CPU stepper's order). Why after the sweep and not fused into it: the sweep's
// blocks own columns of the whole model and the layer's memory variables are 9 values a GLL point
// and pole, which its registers and shared memory could not hold beside the sweep's own; the
// separate passes cost only the layer (the voxel engine's fused step does the same,
// docs/architecture.md#the-pml-on-the-gpu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "boundary/pml_layer.hpp"
#include "core/device_buffer.cuh"
#include "wave/pml_node_pole_args.hpp"
#include "wave/sem_pml_kernel.cuh"
#include "wave/wave_problem.hpp"

namespace voxwave::cuda {

template <class Real>
class SemPmlCorrectionCuda {
public:
    // problem: a sem problem with a PML (boundary.pml). Throws InputError("", "grid", ...) when the
    // layer does not fit in the device's free memory.
    explicit SemPmlCorrectionCuda(const WaveProblem& problem);

    // A state (u-, u) with no history in the layer: the convolutions 0, y = c0 u, y- = c0 u-.
    // Arrays are the engine's SoA state [component * node_count + node].
    void reset(const Real* u_prev, const Real* u);
    // After the sweep wrote u_next = u+ with the interior forces by the factors `upd`: u+ with the
    // layer's. b: the engine's beta / dt (w = (1 + b) u - b u-; 0: w = u).
    void correct(const Real* u, const Real* u_prev, Real b, Real* u_next, const sem_cuda::SemPmlUpdate<Real>& upd);
    std::size_t device_bytes() const;
    std::size_t layer_elements() const { return elements_; }
    std::size_t layer_nodes() const { return nodes_; }

private:
    template <int P>
    void element_pass(const Real* u, const Real* u_prev, Real b, Real* u_next, const sem_cuda::SemPmlUpdate<Real>& upd);

    const WaveProblem& problem_;
    std::size_t elements_ = 0, nodes_ = 0, nn_ = 0;
    long long node_n_[2] = {0, 0};  // GLL nodes along x, y
    DeviceBuffer<unsigned long long> element_, element_first_pole_, node_, node_first_pole_;
    DeviceBuffer<unsigned char> ids_;
    DeviceBuffer<std::uint32_t> live_;                                    // per layer element, sem_pml_live_stages
    DeviceBuffer<std::uint32_t> by_poles_[sem_cuda::kSemPmlPoleClasses];  // sem_pml_elements_by_poles
    DeviceBuffer<double> lambda_, mu_;
    DeviceBuffer<double> element_decay_, element_w_old_, element_w_new_, filter_const_, filter_newton_;
    DeviceBuffer<double> node_decay_, node_w_old_, node_w_new_, node_scale_, node_newton_, node_a_;
    template <class Layer>
    friend void voxwave::fill_pml_node_poles(PmlNodePoleArgs&, const Layer&);
    double one_minus_h_ = 1, inv_one_plus_h_ = 1;
    bool fresh_ = true;  // no history: the chain's input a step back is 0
    DeviceBuffer<double> psi_, prev_, node_psi_, y_, y_prev_;
};

extern template class SemPmlCorrectionCuda<double>;
extern template class SemPmlCorrectionCuda<float>;

}  // namespace voxwave::cuda
