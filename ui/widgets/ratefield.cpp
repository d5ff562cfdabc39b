#include "ui/widgets/ratefield.h"

#include "model/core/units.h"

#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QGridLayout>

#include <cmath>

namespace plimsoll {

QString groupedNumber(double v)
{
    // One fixed locale: the CLI's examples (1,200,000) read the same on every desktop.
    const QLocale en(QLocale::English, QLocale::UnitedStates);
    if (std::abs(v - std::round(v)) < 1e-9 && std::abs(v) < 1e15)
        return en.toString(qlonglong(std::llround(v)));
    QString text = en.toString(v, 'f', 3);
    while (text.endsWith(QLatin1Char('0')))
        text.chop(1);
    if (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    return text;
}

RateField::RateField(const QString &text, Domain records, const Domain *bytes, QWidget *parent)
    : QWidget(parent), m_recordsDomain(records), m_takesBytes(bytes != nullptr)
{
    if (bytes)
        m_bytesDomain = *bytes;
    m_edit = new QLineEdit(text, this);
    m_edit->setObjectName(QStringLiteral("rateEdit"));
    m_edit->setPlaceholderText(m_takesBytes ? tr("e.g. 600k, 1.2M, 600000 or 40MB/s")
                                            : tr("e.g. 600k, 1.2M or 600000"));
    m_feedback = new QLabel(this);
    m_feedback->setObjectName(QStringLiteral("rateFeedback"));
    QFont small = m_feedback->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_feedback->setFont(small);
    m_feedback->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // never widens the form
    m_layout = new QGridLayout(this);
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setVerticalSpacing(1);
    m_layout->addWidget(m_edit, 0, 0);
    m_edit->setMinimumHeight(m_edit->sizeHint().height()); // a crowded form never squeezes the text
    m_layout->addWidget(m_feedback, 1, 0, 1, 2);
    connect(m_edit, &QLineEdit::textChanged, this, &RateField::parse);
    parse();
}

void RateField::addBeside(QWidget *widget)
{
    m_layout->addWidget(widget, 0, 1);
    m_layout->setColumnStretch(0, 1);
    m_layout->setColumnStretch(1, 1);
}

QString RateField::text() const
{
    return m_edit->text();
}

void RateField::setText(const QString &text)
{
    m_edit->setText(text);
}

void RateField::parse()
{
    const std::string text = m_edit->text().trimmed().toStdString();
    std::string error;
    double bytes = 0;
    const auto rate = parseRate(text, &bytes, &error);
    if (rate && *rate == 0 && bytes > 0 && !m_takesBytes)
        error = "'" + text + "' is bytes/s; this field takes records/s (e.g. 600k, 1.2M or 600000)";
    else if (rate && bytes > 0) {
        if (const auto bad = m_bytesDomain.check("rate", bytes))
            error = *bad;
    } else if (rate) {
        if (const auto bad = m_recordsDomain.check("rate", *rate))
            error = *bad;
    }
    if (!rate || !error.empty()) {
        m_error = QString::fromStdString(error);
        // One line under the field; the examples and the rest are in the tooltip.
        QString shown = m_error.section(QStringLiteral(" (e.g."), 0, 0);
        m_feedback->setText(QStringLiteral("⚠ ") + shown);
        m_feedback->setStyleSheet(QStringLiteral("color: #d62728;"));
        m_feedback->setToolTip(m_error);
        m_edit->setToolTip(m_error);
        return;
    }
    m_error.clear();
    m_records = *rate;
    m_bytes = bytes;
    m_feedback->setText(bytes > 0 ? tr("%1 B/s (%2 MiB/s), records/s from the record size")
                                        .arg(groupedNumber(bytes), groupedNumber(bytes / 1048576))
                                  : tr("%1 records/s").arg(groupedNumber(*rate)));
    m_feedback->setStyleSheet(QString());
    m_feedback->setToolTip(QString());
    m_edit->setToolTip(QString());
    emit rateChanged();
}

} // namespace plimsoll
