#pragma once
// An inline banner at the top of the window for the outcome of imports and other store
// writes: a result is read where the user is looking, and a failure never blocks with a modal.

#include <QFrame>

#include <functional>

class QLabel;
class QPushButton;
class QToolButton;

namespace plimsoll {

class MessageBanner : public QFrame
{
    Q_OBJECT
public:
    enum class Kind { Info, Error };

    explicit MessageBanner(QWidget *parent = nullptr);

    void showMessage(Kind kind, const QString &text);
    // The message with one button beside it (e.g. "Undo"); the button acts once. Another
    // message replaces both.
    void showMessage(Kind kind, const QString &text, const QString &actionText,
                     std::function<void()> action);
    QString text() const;
    QString actionText() const; // empty when the message has no button
    void triggerAction();
    Kind kind() const { return m_kind; }

signals:
    void dismissed();

private:
    QLabel *m_label = nullptr;
    QPushButton *m_action = nullptr;
    QToolButton *m_close = nullptr;
    std::function<void()> m_onAction;
    Kind m_kind = Kind::Info;
};

} // namespace plimsoll
