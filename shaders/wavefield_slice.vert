#version 150 core
// A quad covering the slice's rectangle (aspect kept by the `rect` uniform, in NDC).
in vec2 corner;           // (0,0) .. (1,1)
uniform vec4 rect;        // x0, y0, x1, y1 in normalised device coordinates
out vec2 uv;              // 0..1 across the slice's physical extent
void main() {
    uv = corner;
    gl_Position = vec4(mix(rect.xy, rect.zw, corner), 0.0, 1.0);
}
