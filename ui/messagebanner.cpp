#include "ui/messagebanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>

namespace plimsoll {

MessageBanner::MessageBanner(QWidget *parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("messageBanner"));
    setFrameShape(QFrame::StyledPanel);

    m_label = new QLabel(this);
    m_label->setObjectName(QStringLiteral("messageBannerText"));
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_label->setTextFormat(Qt::PlainText);

    m_action = new QPushButton(this);
    m_action->setObjectName(QStringLiteral("messageBannerAction"));
    m_action->hide();
    connect(m_action, &QPushButton::clicked, this, &MessageBanner::triggerAction);

    m_close = new QToolButton(this);
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(tr("Dismiss"));
    connect(m_close, &QToolButton::clicked, this, [this] {
        hide();
        emit dismissed();
    });

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_action, 0, Qt::AlignTop);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    hide();
}

void MessageBanner::showMessage(Kind kind, const QString &text, const QString &actionText,
                                std::function<void()> action)
{
    showMessage(kind, text);
    m_onAction = std::move(action);
    m_action->setText(actionText);
    m_action->setVisible(!actionText.isEmpty());
}

QString MessageBanner::actionText() const
{
    return m_action->isVisible() || m_onAction ? m_action->text() : QString();
}

void MessageBanner::triggerAction()
{
    auto action = std::move(m_onAction);
    m_onAction = nullptr;
    m_action->hide();
    if (action)
        action();
}

void MessageBanner::showMessage(Kind kind, const QString &text)
{
    m_onAction = nullptr;
    m_action->hide();
    m_kind = kind;
    m_label->setText(text);
    // Fixed, light colours read well on both the Fusion and the platform palettes.
    const QColor background = kind == Kind::Error ? QColor(0xfd, 0xe2, 0xe1)
                                                  : QColor(0xe3, 0xf1, 0xdf);
    const QColor border = kind == Kind::Error ? QColor(0xc6, 0x28, 0x28) : QColor(0x38, 0x8e, 0x3c);
    setStyleSheet(QStringLiteral("#messageBanner { background: %1; border: 1px solid %2;"
                                 " border-radius: 4px; }"
                                 " #messageBannerText { color: #212121; }")
                      .arg(background.name(), border.name()));
    show();
}

QString MessageBanner::text() const
{
    return m_label->text();
}

} // namespace plimsoll
