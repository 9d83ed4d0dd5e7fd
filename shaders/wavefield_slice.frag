#version 150 core
// One slice of the wavefield: node values (R32F, linear filtering between nodes) through a
// diverging colormap for signed components or a sequential one for magnitudes, over the
// material layout (element ids, nearest): void is dark, material boundaries are outlined.
in vec2 uv;
out vec4 color;
uniform sampler2D field;      // node values, width x height
uniform sampler2D materials;  // element ids / 255, (width-1) x (height-1)
uniform vec2 nodes;           // width, height (nodes)
uniform float gain;           // value mapped to full colour
uniform int signed_field;     // 1: diverging (blue-white-red), 0: sequential (black-orange-yellow)
uniform int show_materials;   // 1: outline material boundaries and darken void

vec3 diverging(float t) {     // t in [-1, 1]; cool-warm (Moreland), white at zero
    vec3 cold = vec3(0.23, 0.30, 0.75), warm = vec3(0.71, 0.02, 0.15), mid = vec3(0.95, 0.95, 0.95);
    return t < 0.0 ? mix(mid, cold, -t) : mix(mid, warm, t);
}
vec3 sequential(float t) {    // t in [0, 1]; black -> red -> orange -> yellow
    return clamp(vec3(3.0 * t, 3.0 * t - 1.0, 3.0 * t - 2.0), 0.0, 1.0);
}
void main() {
    // Texel centres sit on the nodes: node 0 at uv 0, node n-1 at uv 1.
    vec2 tc = (uv * (nodes - 1.0) + 0.5) / nodes;
    float v = texture(field, tc).r / max(gain, 1e-30);
    vec3 c = signed_field == 1 ? diverging(clamp(v, -1.0, 1.0)) : sequential(clamp(v, 0.0, 1.0));
    if (show_materials == 1) {
        vec2 cells = nodes - 1.0;
        float id = texture(materials, uv).r;
        if (id < 0.5 / 255.0) c = mix(c, vec3(0.12, 0.12, 0.14), 0.85);
        vec2 d = 0.15 / cells;  // a thin outline: 15 % of a cell inside each boundary
        float e = 0.0;
        e += abs(texture(materials, uv + vec2(d.x, 0.0)).r - id);
        e += abs(texture(materials, uv + vec2(0.0, d.y)).r - id);
        if (e > 0.1 / 255.0) c *= 0.55;
    }
    color = vec4(c, 1.0);
}
