// The Sizing view's panels that qualify and explain the numbers: caveats, the broker count by
// each model, the reasoning lines and the utilization bars.
#include "ui/views/sizingview.h"

#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QScrollBar>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <set>

namespace plimsoll {

namespace {

QString html(const std::string &text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString runCount(size_t n)
{
    return n == 1 ? SizingView::tr("1 run") : SizingView::tr("%1 runs").arg(n);
}

QString answerUnits(const UnitsAnswer &a)
{
    return a.units ? QString::number(*a.units) : QStringLiteral("—");
}

} // namespace

void SizingView::showCaveats()
{
    m_caveatList.clear();
    if (m_result.ok && m_sizer) {
        for (const std::string &w : m_result.warnings)
            m_caveatList << QString::fromStdString(w);
        const SizingModels &m = m_sizer->models();
        for (const ComponentSweepModel *sweep : {&m.brokerSweep, &m.shardSweep})
            if (sweep->ok && sweep->fit.weak)
                m_caveatList << tr("the %1 fit across runs is weak: %2")
                                    .arg(QString::fromStdString(sweep->component),
                                         QString::fromStdString(sweep->fit.weakReason));
        std::set<int> counts;
        QStringList each;
        for (const UnitsAnswer &a : m_result.brokerChoice.answers) {
            if (a.units)
                counts.insert(*a.units);
            each << QStringLiteral("%1 %2").arg(QString::fromStdString(a.model), answerUnits(a));
        }
        if (counts.size() > 1)
            m_caveatList << tr("the broker models disagree (%1): the sizing took %2")
                                .arg(each.join(QStringLiteral(", ")),
                                     QString::fromStdString(m_result.brokerChoice.taken));
    }
    QStringList lines;
    for (const QString &c : m_caveatList)
        lines << QStringLiteral("⚠ ") + c.toHtmlEscaped();
    m_caveats->setText(lines.join(QStringLiteral("<br>")));
    m_caveats->setVisible(!m_caveatList.isEmpty());
}

void SizingView::showBrokerModels()
{
    const UnitsChoice &choice = m_result.brokerChoice;
    m_brokerTable->setRowCount(0);
    for (const UnitsAnswer &a : choice.answers) {
        const int row = m_brokerTable->rowCount();
        m_brokerTable->insertRow(row);
        auto *model = new QTableWidgetItem((a.taken ? QStringLiteral("✔ ") : QStringLiteral("   ")) +
                                           QString::fromStdString(a.model));
        model->setData(Qt::UserRole, QString::fromStdString(a.model));
        auto *units = new QTableWidgetItem(answerUnits(a));
        units->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        auto *from = new QTableWidgetItem(QString::fromStdString(a.reasoning));
        QString tip = QString::fromStdString(a.reasoning);
        if (!a.runKeys.empty())
            tip += QStringLiteral("\n\n") + runCount(a.runKeys.size()) + QLatin1Char(':');
        for (const std::string &k : a.runKeys)
            tip += QStringLiteral("\n") + QString::fromStdString(k);
        for (QTableWidgetItem *item : {model, units, from}) {
            item->setToolTip(tip);
            if (a.taken) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
        }
        m_brokerTable->setItem(row, 0, model);
        m_brokerTable->setItem(row, 1, units);
        m_brokerTable->setItem(row, 2, from);
    }
    const bool any = !choice.answers.empty();
    m_brokerTable->parentWidget()->setVisible(any); // the group that holds it and the why
    if (!any)
        return;
    m_brokerTable->resizeColumnToContents(0);
    m_brokerTable->resizeColumnToContents(1);
    int height = m_brokerTable->horizontalHeader()->sizeHint().height() + 2 * m_brokerTable->frameWidth();
    for (int row = 0; row < m_brokerTable->rowCount(); ++row)
        height += m_brokerTable->rowHeight(row);
    m_brokerTable->setFixedHeight(height);
    m_brokerWhy->setText(choice.ok ? tr("The sizing took <b>%1</b>: %2").arg(html(choice.taken), html(choice.why))
                                   : html(choice.error));
}

void SizingView::showReasoning(bool keepScroll)
{
    if (!m_result.ok) {
        m_reasoning->clear();
        return;
    }
    // Each line names its model and parameters; its runs are a count that opens the list, so
    // a store of nightly history does not bury the reasoning under run keys.
    QString text;
    for (const SizingLine &l : m_result.lines) {
        text += QStringLiteral("<p><b>%1: %2</b> — ").arg(html(l.label), html(l.display));
        if (!l.caveat.empty())
            text += QStringLiteral("<span style='color:#8a4500'>⚠ %1.</span> ").arg(html(l.caveat));
        text += html(l.reasoning);
        if (!l.runKeys.empty())
            text += QStringLiteral(" · <a href=\"runs:%1\">%2</a>")
                        .arg(html(l.key), runCount(l.runKeys.size()));
        if (*label(l.evidence))
            text += QStringLiteral(" (%1)").arg(html(label(l.evidence)));
        text += QStringLiteral("</p>");
        if (!l.runKeys.empty() && m_expandedRuns.count(l.key)) {
            QStringList keys;
            for (const std::string &k : l.runKeys)
                keys << html(k);
            text += QStringLiteral("<p style='margin-left:16px'><small>%1</small></p>")
                        .arg(keys.join(QStringLiteral("<br>")));
        }
    }
    const int scroll = keepScroll && m_reasoning->verticalScrollBar() ? m_reasoning->verticalScrollBar()->value() : 0;
    m_reasoning->setHtml(text);
    m_reasoning->verticalScrollBar()->setValue(scroll);
}

void SizingView::showBars()
{
    // One bar per component, kept across recomputes so the panel does not flicker.
    const auto bars = m_barsBox->findChildren<QProgressBar *>();
    for (auto *bar : bars)
        bar->hide();
    if (!m_result.ok)
        return;
    for (const ComponentLoad &load : m_result.loads) {
        const QString name = QString::fromStdString(load.component);
        QProgressBar *bar = nullptr;
        for (auto *b : bars)
            if (b->property("component").toString() == name)
                bar = b;
        if (!bar) {
            bar = new QProgressBar(m_barsBox);
            bar->setProperty("component", name);
            bar->setObjectName(QStringLiteral("utilization_") + name);
            bar->setRange(0, 100);
            m_bars->addWidget(bar);
        }
        const int percent = int(std::lround(std::min(load.utilization, 1.0) * 100));
        bar->setValue(percent);
        bar->setFormat(tr("%1: %2 % (limit %3 %)")
                           .arg(name)
                           .arg(std::lround(load.utilization * 100))
                           .arg(std::lround(load.limit * 100)));
        // Past the limit reads red, near it amber: the bar alone tells the bottleneck.
        const double share = load.utilization / load.limit;
        const char *color = share > 1 ? "#d62728" : share > 0.85 ? "#ff7f0e" : "#2ca02c";
        bar->setStyleSheet(QStringLiteral("QProgressBar::chunk { background: %1; }").arg(QLatin1String(color)));
        bar->setToolTip(name == QString::fromStdString(m_result.bottleneck) ? tr("the bottleneck")
                                                                            : QString());
        bar->show();
    }
}

} // namespace plimsoll
