#version 150 core
// One slice of the wavefield: node values (R32F, linear filtering between nodes) through a
// colour map (diverging for signed components, sequential for magnitudes), over the
// material layout (element ids, nearest): void is dark, material boundaries are outlined.
in vec2 uv;
out vec4 color;
uniform sampler2D field;      // node values, width x height
uniform sampler2D materials;  // element ids / 255, (width-1) x (height-1)
uniform vec2 nodes;           // width, height (nodes)
uniform float gain;           // value mapped to full colour
uniform int signed_field;     // 1: -gain..gain over the map (diverging), 0: 0..gain (sequential)
uniform int show_materials;   // 1: outline material boundaries and darken void
// The colour map: its stops, evenly spaced over [0, 1], linear between. Set from the map's one
// definition in C++ (ui/views/color_bar.cpp), which the colour bar beside the view samples too.
uniform vec3 stops[8];
uniform int stop_count;

vec3 color_map(float t) {
    float x = clamp(t, 0.0, 1.0) * float(stop_count - 1);
    int i = min(int(floor(x)), stop_count - 2);
    return mix(stops[i], stops[i + 1], x - float(i));
}
void main() {
    // Texel centres sit on the nodes: node 0 at uv 0, node n-1 at uv 1.
    vec2 tc = (uv * (nodes - 1.0) + 0.5) / nodes;
    float v = texture(field, tc).r / max(gain, 1e-30);
    vec3 c = color_map(signed_field == 1 ? 0.5 * (v + 1.0) : v);
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
