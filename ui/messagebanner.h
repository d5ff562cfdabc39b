#pragma once
// An inline banner at the top of the window for the outcome of imports and other store
// writes: a result is read where the user is looking, and a failure never blocks with a modal.

#include <QFrame>

class QLabel;
class QToolButton;

namespace plimsoll {

class MessageBanner : public QFrame
{
    Q_OBJECT
public:
    enum class Kind { Info, Error };

    explicit MessageBanner(QWidget *parent = nullptr);

    void showMessage(Kind kind, const QString &text);
    QString text() const;
    Kind kind() const { return m_kind; }

signals:
    void dismissed();

private:
    QLabel *m_label = nullptr;
    QToolButton *m_close = nullptr;
    Kind m_kind = Kind::Info;
};

} // namespace plimsoll
