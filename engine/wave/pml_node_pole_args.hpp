// The node-pole block of a PML node pass's kernel argument: the layer nodes' tables and state on
// the device, as the voxel pass (pml_correction_cuda.cu: PmlNodeArgs) and the spectral-element
// pass (sem_pml_kernel.cuh: SemPmlNodeArgs) both read them; each argument struct derives from it,
// so that the kernels name the fields as before. The order of the nodes, of their poles and of y
// is each pass's own (stage-major PmlStages, or node_first_pole).
#pragma once

namespace voxwave {

struct PmlNodePoleArgs {
    const unsigned long long* node;                // each layer node's index in the model
    const double *scale, *a;                       // per layer node: c0, dt^2 / m (0 where held)
    const double *newton, *decay, *w_old, *w_new;  // per node pole
    double one_minus_h, inv_one_plus_h;            // Rayleigh's mass term, on y
    double* psi;                                   // 3 per node pole
    double *y, *y_prev;                            // 3 per layer node: y = c0 u now and a step before
};

// The block from the device buffers of a PML layer (PmlCorrection, SemPmlCorrectionCuda) that
// keeps them under these member names; the layers befriend it.
template <class Layer>
void fill_pml_node_poles(PmlNodePoleArgs& b, const Layer& layer) {
    b.node = layer.node_.get();
    b.scale = layer.node_scale_.get();
    b.a = layer.node_a_.get();
    b.newton = layer.node_newton_.get();
    b.decay = layer.node_decay_.get();
    b.w_old = layer.node_w_old_.get();
    b.w_new = layer.node_w_new_.get();
    b.one_minus_h = layer.one_minus_h_;
    b.inv_one_plus_h = layer.inv_one_plus_h_;
    b.psi = layer.node_psi_.get();
    b.y = layer.y_.get();
    b.y_prev = layer.y_prev_.get();
}

}  // namespace voxwave
