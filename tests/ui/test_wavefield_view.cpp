// The wavefield view's texture upload: host slices go through the pixel-unpack buffer (the GL
// path CUDA fills with interop) and must draw exactly what the direct upload from client memory
// draws, for a first slice, a same-size update (glTexSubImage2D) and a new size (re-specified
// texture, grown buffer). Under xvfb the context is Mesa's: the view must say interop is not usable.
#include <QApplication>
#include <QHBoxLayout>
#include <QtTest>
#include <cmath>

#include "views/gl_format.hpp"
#include "views/wavefield_view.hpp"

using namespace voxwave;
using voxwave::ui::WavefieldView;

namespace {

// A travelling ring with both signs and a hot spot: every colour of the diverging map appears.
SliceImage known_slice(int w, int h, double phase) {
    SliceImage s{w, h, std::vector<float>(std::size_t(w) * h)};
    for (int b = 0; b < h; ++b)
        for (int a = 0; a < w; ++a) {
            const double x = (a - 0.4 * w) / w, y = (b - 0.6 * h) / h;
            const double r = std::sqrt(x * x + y * y);
            s.values[std::size_t(b) * w + a] = float(1e-9 * std::sin(40 * r - phase) * std::exp(-3 * r));
        }
    s.values[std::size_t(h / 3) * w + w / 4] = 5e-8f;
    return s;
}

std::vector<MaterialId> known_ids(int w, int h) {
    std::vector<MaterialId> ids(std::size_t(w - 1) * (h - 1), 1);
    for (std::size_t i = 0; i < ids.size(); i += 7) ids[i] = 2;
    return ids;
}

}  // namespace

class TestWavefieldView : public QObject {
    Q_OBJECT

    // Draws each slice through the PBO in one view and directly in the other (same size, same
    // manual gain) and compares the frames pixel by pixel.
    void compareDrawn(WavefieldView& pbo, WavefieldView& direct, const SliceImage& s, bool signed_field) {
        const auto ids = known_ids(s.width, s.height);
        pbo.setSlice(s, ids, signed_field);
        direct.setSlice(s, ids, signed_field);
        const QImage a = pbo.grabFramebuffer();
        const QImage b = direct.grabFramebuffer();
        QVERIFY(!a.isNull());
        QCOMPARE(a.size(), b.size());
        int differ = 0, coloured = 0;
        for (int y = 0; y < a.height(); ++y)
            for (int x = 0; x < a.width(); ++x) {
                differ += a.pixel(x, y) != b.pixel(x, y);
                const QColor c = a.pixelColor(x, y);
                coloured += std::abs(c.red() - c.blue()) > 60;
            }
        QCOMPARE(differ, 0);
        QVERIFY2(coloured > 500, qPrintable(QString::number(coloured)));  // the slice was drawn, not left blank
    }

private slots:
    void pboUploadDrawsWhatTheDirectUploadDraws() {
        QWidget host;
        auto* lay = new QHBoxLayout(&host);
        auto* pbo = new WavefieldView;
        auto* direct = new WavefieldView;
        direct->setPixelBufferUpload(false);
        lay->addWidget(pbo);
        lay->addWidget(direct);
        host.resize(900, 400);
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        QTRY_VERIFY(pbo->isValid() && direct->isValid());
        QCOMPARE(pbo->size(), direct->size());
        for (WavefieldView* v : {pbo, direct}) v->setManualGain(1e-9);

        compareDrawn(*pbo, *direct, known_slice(81, 41, 0.0), true);
        compareDrawn(*pbo, *direct, known_slice(81, 41, 1.3), true);    // same size: glTexSubImage2D
        compareDrawn(*pbo, *direct, known_slice(121, 97, 2.1), false);  // larger: buffer grows
        compareDrawn(*pbo, *direct, known_slice(41, 61, 0.7), true);    // smaller: buffer kept
        QCOMPARE(pbo->hostPboUploads(), 4);
        QCOMPARE(direct->hostPboUploads(), 0);
        QCOMPARE(pbo->devicePboUploads(), 0);
        QVERIFY2(pbo->glErrors().isEmpty(), qPrintable(pbo->glErrors().join("; ")));
        QVERIFY2(direct->glErrors().isEmpty(), qPrintable(direct->glErrors().join("; ")));
        // Software GL (or a build without CUDA): no interop, with the reason given.
        if (!pbo->interopUsable()) QVERIFY(!pbo->interopStatus().isEmpty());
    }
};

int main(int argc, char** argv) {
    voxwave::ui::set_default_gl_format();
    QApplication app(argc, argv);
    TestWavefieldView t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_wavefield_view.moc"
