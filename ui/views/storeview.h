#pragma once
// A page of the main window that shows something read from the store.
//
// Threading contract: a view never opens the store on the UI thread. reload() starts a
// background read with a Store of its own on storePath() (see LatestTask) and applies the
// result when it arrives; a newer reload() makes older results stale.
//
// The window reads lazily: reloadWhenShown() reads now for a view on screen and leaves a hidden
// one stale until it is next shown, so a store of years of history costs only what is looked at.

#include <QIcon>
#include <QShowEvent>
#include <QStyle>
#include <QWidget>

#include <utility>

namespace plimsoll {

// How the window lists a view: its sidebar entry, menu item and settings key.
struct ViewIdentity
{
    QString key;   // stable, for settings and --view: e.g. "library"
    QString title; // translated
    QStyle::StandardPixmap icon;
};

class StoreView : public QWidget
{
    Q_OBJECT
public:
    StoreView(const QString &storePath, ViewIdentity identity, QWidget *parent = nullptr)
        : QWidget(parent), m_storePath(storePath), m_identity(std::move(identity))
    {
    }

    const QString &storePath() const { return m_storePath; }
    const QString &key() const { return m_identity.key; }
    const QString &title() const { return m_identity.title; }
    QIcon icon() const { return style()->standardIcon(m_identity.icon); }
    // Re-reads what the view shows, keeping the user's selections where they still exist.
    virtual void reload() = 0;
    // The store changed (or became ready): reload() now when on screen, else when next shown.
    void reloadWhenShown()
    {
        m_stale = !isVisible();
        if (!m_stale)
            reload();
    }
    // Waiting for a reload until it is next shown.
    bool isStale() const { return m_stale; }

signals:
    // A read failed (e.g. the file is not a Plimsoll store); the window shows it in its banner.
    void loadFailed(const QString &message);
    // The choices kept in the store (tuning-contract keys left out) changed: the other
    // views that read them reload.
    void sharedSettingsChanged();
    // The view wrote to the store itself (a bench run stored): the other views read again when
    // shown, and the window does not take the write for one made elsewhere.
    void storeWritten();

protected:
    void showEvent(QShowEvent *event) override
    {
        QWidget::showEvent(event);
        if (m_stale) {
            m_stale = false;
            reload();
        }
    }

private:
    QString m_storePath;
    ViewIdentity m_identity;
    bool m_stale = false;
};

} // namespace plimsoll
