#include "ui/charts/reportrenderer.h"

#include "ui/charts/chartrender.h"
#include "ui/charts/placementchart.h"
#include "ui/charts/runcharts.h"
#include "ui/charts/scalingchart.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QChart>
#include <QLegend>
#include <QHashFunctions>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>

#include <memory>

namespace plimsoll {

namespace {

// Charts are laid out at the size the window shows them, then scaled onto the page.
const QSize kChartScene(760, 420);
constexpr int kLayoutDpi = 96;
constexpr double kMarginMm = 15;
constexpr int kTableChunkRows = 18; // rows per table piece: a long table breaks across pages

QString esc(const std::string &text) { return QString::fromStdString(text).toHtmlEscaped(); }

std::unique_ptr<QChart> makeChart(const ReportChart &c, const ReportData &data)
{
    if (c.kind == ReportChart::Kind::Placement) {
        auto chart = std::make_unique<PlacementChart>();
        chart->showPlacement(data.placement);
        chart->setTitle(esc(c.caption)); // a chart title is rich text: escape
        return chart;
    }
    if (c.kind == ReportChart::Kind::Spectrum) {
        auto chart = std::make_unique<QChart>();
        chart->setAnimationOptions(QChart::NoAnimation);
        chart->legend()->setAlignment(Qt::AlignRight);
        if (c.fit >= 0 && size_t(c.fit) < data.fits.size())
            showSpectrum(chart.get(), data.fits[size_t(c.fit)].spectrum, data.fits[size_t(c.fit)].spectrumFamily);
        chart->setTitle(esc(c.caption));
        return chart;
    }
    auto chart = std::make_unique<ScalingChart>();
    if (c.fit >= 0 && size_t(c.fit) < data.fits.size()) {
        const ReportFit &f = data.fits[size_t(c.fit)];
        chart->showFit(f.points, f.fit, f.saturation, QString::fromStdString(f.factor), f.metric);
    }
    chart->setTitle(esc(c.caption));
    return chart;
}

QString tableHtml(const ReportBlock &b, size_t from, size_t to)
{
    QString h = QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\"><tr>");
    for (const std::string &c : b.header)
        h += QStringLiteral("<th align=\"left\">%1</th>").arg(esc(c));
    h += QStringLiteral("</tr>");
    for (size_t r = from; r < to && r < b.rows.size(); ++r) {
        h += QStringLiteral("<tr>");
        for (size_t i = 0; i < b.rows[r].size(); ++i) {
            const bool right = i < b.numeric.size() && b.numeric[i];
            h += right ? QStringLiteral("<td align=\"right\">") : QStringLiteral("<td>");
            h += esc(b.rows[r][i]) + QStringLiteral("</td>");
        }
        h += QStringLiteral("</tr>");
    }
    return h + QStringLiteral("</table>");
}

QString blockHtml(const ReportBlock &b)
{
    switch (b.kind) {
    case ReportBlock::Kind::Heading:
        return QStringLiteral("<h%1>%2</h%1>").arg(b.level).arg(esc(b.text));
    case ReportBlock::Kind::Paragraph:
        return QStringLiteral("<p>%1</p>").arg(esc(b.text));
    case ReportBlock::Kind::Bullets: {
        QString h = QStringLiteral("<ul>");
        for (const std::string &i : b.items)
            h += QStringLiteral("<li>%1</li>").arg(esc(i));
        return h + QStringLiteral("</ul>");
    }
    case ReportBlock::Kind::Table:
        return tableHtml(b, 0, b.rows.size());
    case ReportBlock::Kind::Chart:
        break;
    }
    return {};
}

// ------------------------------------------------------------------------------ paged layout

// Where pages go: a PDF writer or preview images. Coordinates are 96-dpi pixels inside the
// margins, the same for both, so the preview is the PDF.
class Pager
{
public:
    virtual ~Pager() = default;
    virtual QPainter &painter() = 0;
    virtual QPaintDevice *device() = 0;
    virtual void newPage() = 0;
    QSizeF area;
};

class PdfPager : public Pager
{
public:
    explicit PdfPager(QPdfWriter *pdf) : m_pdf(pdf), m_painter(pdf)
    {
        area = QSizeF(pdf->width(), pdf->height());
        m_painter.setRenderHint(QPainter::Antialiasing);
    }
    QPainter &painter() override { return m_painter; }
    QPaintDevice *device() override { return m_pdf; }
    void newPage() override { m_pdf->newPage(); }

private:
    QPdfWriter *m_pdf;
    QPainter m_painter;
};

class ImagePager : public Pager
{
public:
    ImagePager(std::vector<QImage> *pages, int dpi) : m_pages(pages), m_scale(double(dpi) / kLayoutDpi)
    {
        const QPageLayout layout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                 QMarginsF(kMarginMm, kMarginMm, kMarginMm, kMarginMm),
                                 QPageLayout::Millimeter);
        m_full = layout.fullRectPixels(kLayoutDpi).size();
        m_margin = layout.marginsPixels(kLayoutDpi).left();
        area = QSizeF(layout.paintRectPixels(kLayoutDpi).size());
        m_metrics = QImage(1, 1, QImage::Format_RGB32);
        setDpi(m_metrics);
        newPage();
    }
    ~ImagePager() override { m_painter.end(); }
    QPainter &painter() override { return m_painter; }
    QPaintDevice *device() override { return &m_metrics; }
    void newPage() override
    {
        if (m_painter.isActive())
            m_painter.end();
        QImage page(m_full * m_scale, QImage::Format_RGB32);
        setDpi(page);
        page.fill(Qt::white);
        m_pages->push_back(std::move(page));
        m_painter.begin(&m_pages->back());
        m_painter.setRenderHint(QPainter::Antialiasing);
        m_painter.scale(m_scale, m_scale);
        m_painter.translate(m_margin, m_margin);
    }

private:
    static void setDpi(QImage &image)
    {
        image.setDotsPerMeterX(int(kLayoutDpi / 0.0254 + 0.5));
        image.setDotsPerMeterY(int(kLayoutDpi / 0.0254 + 0.5));
    }
    std::vector<QImage> *m_pages;
    double m_scale;
    QSize m_full;
    int m_margin = 0;
    QImage m_metrics; // text is measured at 96 dpi whatever the preview's zoom
    QPainter m_painter;
};

class Layout
{
public:
    explicit Layout(Pager &pager) : m_pager(pager) {}

    void html(const QString &html, double keepWithNext = 0)
    {
        QTextDocument doc;
        doc.documentLayout()->setPaintDevice(m_pager.device());
        doc.setDefaultFont(QFont(QStringLiteral("DejaVu Sans"), 9));
        doc.setDefaultStyleSheet(QStringLiteral("h1 { color: #1f3a5f; } h2 { color: #1f3a5f; } "
                                                "th { background-color: #e8eef5; }"));
        doc.setTextWidth(m_pager.area.width());
        doc.setHtml(html);
        const double h = doc.size().height();
        room(h + keepWithNext);
        QPainter &p = m_pager.painter();
        p.save();
        p.translate(0, m_y);
        doc.drawContents(&p);
        p.restore();
        m_y += h;
    }

    double chartHeight() const
    {
        return m_pager.area.width() * kChartScene.height() / kChartScene.width();
    }

    void chart(QChart *chart)
    {
        const double w = m_pager.area.width();
        const double h = chartHeight();
        room(h);
        paintChart(chart, &m_pager.painter(), QRectF(0, m_y, w, h), kChartScene);
        m_y += h + 6;
    }

private:
    void room(double h)
    {
        if (m_y > 0 && m_y + h > m_pager.area.height()) {
            m_pager.newPage();
            m_y = 0;
        }
    }
    Pager &m_pager;
    double m_y = 0;
};

void layOut(Pager &pager, const ReportDocument &doc, const ReportData &data)
{
    Layout layout(pager);
    layout.html(QStringLiteral("<h1>%1</h1><p>%2</p>").arg(esc(doc.title), esc(doc.generatedAt)));
    for (size_t i = 0; i < doc.blocks.size(); ++i) {
        const ReportBlock &b = doc.blocks[i];
        if (b.kind == ReportBlock::Kind::Chart) {
            const auto chart = makeChart(b.chart, data);
            layout.chart(chart.get());
        } else if (b.kind == ReportBlock::Kind::Table) {
            for (size_t from = 0; from < std::max<size_t>(b.rows.size(), 1); from += kTableChunkRows)
                layout.html(tableHtml(b, from, from + kTableChunkRows));
        } else {
            // A heading never ends a page: keep room for what follows (a chart, or a few lines).
            double keep = 0;
            if (b.kind == ReportBlock::Kind::Heading)
                keep = i + 1 < doc.blocks.size() && doc.blocks[i + 1].kind == ReportBlock::Kind::Chart
                           ? layout.chartHeight()
                           : 120;
            layout.html(blockHtml(b), keep);
        }
    }
}

// Qt stamps "/CreationDate (D:YYYYMMDDHHmmSS+HH'MM')" with the wall clock. Overwrite it in
// place (same length, so the cross-reference offsets stay right) with the generated-at time.
void fixCreationDate(QByteArray &pdf, const std::string &generatedAt)
{
    QByteArray digits;
    for (char c : generatedAt)
        if (c >= '0' && c <= '9')
            digits += c;
    digits = digits.left(14).leftJustified(14, '0');
    const QByteArray key("/CreationDate (D:");
    const qsizetype at = pdf.indexOf(key);
    if (at < 0)
        return;
    const qsizetype start = at + key.size();
    const qsizetype end = pdf.indexOf(')', start);
    if (end < 0)
        return;
    QByteArray stamp = digits;
    const qsizetype zone = end - start - 14;
    if (zone == 7)
        stamp += "+00'00'";
    else
        stamp += QByteArray(zone, '0').replace(0, 1, "Z").left(zone);
    pdf.replace(start, end - start, stamp);
}

} // namespace

QByteArray renderReportHtml(const ReportDocument &doc, const ReportData &data)
{
    // Inline style only: the file must open anywhere without fetching a thing.
    QString h = QStringLiteral(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"generator\" content=\"Plimsoll %1\">\n<title>%2</title>\n<style>\n"
        "body { font-family: 'DejaVu Sans', sans-serif; font-size: 14px; max-width: 60em; "
        "margin: 2em auto; color: #222; }\nh1, h2, h3 { color: #1f3a5f; }\n"
        "table { border-collapse: collapse; margin: 0.5em 0; }\n"
        "th, td { border: 1px solid #bbb; padding: 3px 6px; vertical-align: top; }\n"
        "th { background: #e8eef5; text-align: left; }\ntd.num { text-align: right; }\n"
        "figure { margin: 1em 0; }\nfigure svg { width: 100%; height: auto; }\n"
        ".generated { color: #666; }\n</style>\n</head>\n<body>\n<h1>%2</h1>\n"
        "<p class=\"generated\">%3</p>\n")
                    .arg(esc(data.plimsollVersion), esc(doc.title), esc(doc.generatedAt));
    int figure = 0;
    for (const ReportBlock &b : doc.blocks) {
        if (b.kind == ReportBlock::Kind::Chart) {
            const auto chart = makeChart(b.chart, data);
            h += QStringLiteral("<figure id=\"figure-%1\">\n").arg(++figure);
            // QSvgGenerator numbers its gradients from 1 in every SVG; inline in one page the
            // ids must differ, so each figure prefixes its own.
            const QString prefix = QStringLiteral("fig%1-").arg(figure);
            h += QString::fromUtf8(chartSvg(chart.get(), kChartScene, QStringLiteral("Figure %1").arg(figure)))
                     .replace(QStringLiteral("id=\"gradient"), QStringLiteral("id=\"") + prefix + QStringLiteral("gradient"))
                     .replace(QStringLiteral("url(#gradient"), QStringLiteral("url(#") + prefix + QStringLiteral("gradient"));
            h += QStringLiteral("\n<figcaption>Figure %1: %2</figcaption>\n</figure>\n")
                     .arg(figure)
                     .arg(esc(b.chart.caption));
        } else if (b.kind == ReportBlock::Kind::Table) {
            h += QStringLiteral("<table>\n<tr>");
            for (const std::string &c : b.header)
                h += QStringLiteral("<th>%1</th>").arg(esc(c));
            h += QStringLiteral("</tr>\n");
            for (const auto &row : b.rows) {
                h += QStringLiteral("<tr>");
                for (size_t i = 0; i < row.size(); ++i)
                    h += (i < b.numeric.size() && b.numeric[i] ? QStringLiteral("<td class=\"num\">")
                                                               : QStringLiteral("<td>")) +
                         esc(row[i]) + QStringLiteral("</td>");
                h += QStringLiteral("</tr>\n");
            }
            h += QStringLiteral("</table>\n");
        } else {
            h += blockHtml(b) + QStringLiteral("\n");
        }
    }
    h += QStringLiteral("</body>\n</html>\n");
    return h.toUtf8();
}

QByteArray renderReportPdf(const ReportDocument &doc, const ReportData &data)
{
    // Qt's PDF engine keeps its fonts in a QHash and writes them in hash order; with the
    // per-process random seed the same report would embed its fonts in a different order on
    // every run. A fixed seed makes the order, and so the bytes, repeat. It applies to hashes
    // created from now on in this process, which is harmless: nothing depends on hash order.
    QHashSeed::setDeterministicGlobalSeed();
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter pdf(&buffer);
        pdf.setResolution(kLayoutDpi);
        pdf.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                      QMarginsF(kMarginMm, kMarginMm, kMarginMm, kMarginMm),
                                      QPageLayout::Millimeter));
        pdf.setTitle(QString::fromStdString(doc.title));
        pdf.setCreator(QStringLiteral("Plimsoll %1").arg(QString::fromStdString(data.plimsollVersion)));
        // Qt's default XMP carries a random document id and the wall clock; this one does not.
        pdf.setDocumentXmpMetadata(
            QStringLiteral("<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?>"
                           "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF "
                           "xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>"
                           "<rdf:Description rdf:about='' xmlns:dc='http://purl.org/dc/elements/1.1/'>"
                           "<dc:title><rdf:Alt><rdf:li xml:lang='x-default'>%1</rdf:li></rdf:Alt>"
                           "</dc:title></rdf:Description></rdf:RDF></x:xmpmeta>"
                           "<?xpacket end='w'?>")
                .arg(esc(doc.title))
                .toUtf8());
        PdfPager pager(&pdf);
        layOut(pager, doc, data);
    }
    QByteArray out = buffer.data();
    fixCreationDate(out, doc.generatedAt);
    return out;
}

std::vector<QImage> renderReportPages(const ReportDocument &doc, const ReportData &data, int dpi)
{
    std::vector<QImage> pages;
    {
        ImagePager pager(&pages, dpi);
        layOut(pager, doc, data);
    }
    return pages;
}

} // namespace plimsoll
