#pragma once
// A rate typed as on the command line — "1.2M", "650k", "1.2" (a bare number is records/s),
// "40MB/s" — read by the one parser the CLI uses (parseRate) and checked against the input's
// domain. Under the text it says what it read ("1,200,000 records/s") or, for text that is no
// rate, why; the value stays the last one that was good, so a half-typed "1.2" → "1.2M" never
// sizes for something the user did not mean to leave there.

#include "model/core/domain.h"

#include <QWidget>

class QGridLayout;
class QLabel;
class QLineEdit;

namespace plimsoll {

class RateField : public QWidget
{
    Q_OBJECT
public:
    // `records`: the domain of records/s; `bytes`: of bytes/s, or nullptr when the field takes
    // records/s only (then "40MB/s" is refused as such).
    RateField(const QString &text, Domain records, const Domain *bytes, QWidget *parent = nullptr);

    // A widget beside the text (a slider), so the line under both has the field's full width.
    void addBeside(QWidget *widget);

    QString text() const;
    void setText(const QString &text);
    QLineEdit *lineEdit() const { return m_edit; }
    QLabel *feedbackLabel() const { return m_feedback; }

    // Of the text as it stands.
    bool isValid() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }
    // The last good value: records/s, or 0 with bytesPerS() set when it was given in bytes/s.
    double recordsPerS() const { return m_records; }
    double bytesPerS() const { return m_bytes; }

signals:
    // A new good value; not emitted for text that does not parse or is out of the domain.
    void rateChanged();

private:
    void parse();

    QLineEdit *m_edit = nullptr;
    QLabel *m_feedback = nullptr;
    QGridLayout *m_layout = nullptr;
    Domain m_recordsDomain;
    Domain m_bytesDomain;
    bool m_takesBytes = false;
    double m_records = 0;
    double m_bytes = 0;
    QString m_error;
};

// "1,200,000", "1.2", "650,000": a rate for reading, whole numbers with separators, others to
// three decimals without trailing zeros.
QString groupedNumber(double v);

} // namespace plimsoll
