// The window's stores: File > Open Store / Open Team Store / Open Recent, the stores remembered,
// and the background probe that notices writes by others and whether this store is read-only.
#include "ui/mainwindow.h"

#include "model/store/connection.h"
#include "ui/latesttask.h"
#include "ui/messagebanner.h"
#include "ui/storewriter.h"
#include "ui/views/libraryview.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <optional>

namespace plimsoll {

QSettings MainWindow::windowSettings()
{
    return QSettings(QStringLiteral("Plimsoll"), QStringLiteral("plimsoll"));
}

void MainWindow::setChangePollInterval(int milliseconds)
{
    m_changePoll->setInterval(std::max(0, milliseconds));
    if (milliseconds <= 0)
        m_changePoll->stop();
    else if (!m_changeToken.isEmpty())
        m_changePoll->start();
}

void MainWindow::probeStore()
{
    if (m_probe->isRunning() || m_writer->isBusy())
        return; // a write of our own is under way: it reloads the views itself
    struct Probe
    {
        std::string token;
        std::optional<std::string> readOnly;
    };
    m_probe->start(
        [path = m_storePath.toStdString()] {
            const Store store(path);
            return Probe{store.changeToken(), store.readOnlyReason()};
        },
        [this, writes = m_ownWrites](const Probe &p) {
            m_readOnlyReason = p.readOnly ? QString::fromStdString(*p.readOnly) : QString();
            m_accessLabel->setText(m_readOnlyReason);
            m_accessLabel->setVisible(!m_readOnlyReason.isEmpty());
            updateWriteActions();
            if (writes != m_ownWrites)
                return; // read before a write of ours: the store has moved on since, by our hand
            const QString token = QString::fromStdString(p.token);
            const bool changed = !m_changeToken.isEmpty() && token != m_changeToken;
            if (changed && !m_writer->isBusy()) {
                reloadViews();
                statusBar()->showMessage(tr("The store changed (written elsewhere): the views were read again."),
                                         10000);
                emit storeChangedElsewhere();
            }
            m_changeToken = token;
        },
        [](const QString &) {
            // The store is out of reach for a moment (a team store's server restarting): the
            // views say so when they next read; the probe tries again at its next tick.
        });
}

void MainWindow::updateWriteActions()
{
    const bool readOnly = !m_readOnlyReason.isEmpty();
    const QString why = readOnly ? tr("This store is %1.").arg(m_readOnlyReason) : QString();
    const struct
    {
        QAction *action;
        QString tip;
    } writes[] = {
        {m_importAction, tr("Import result files into the store")},
        {m_importUrlAction, tr("Import a result file from a URL into the store")},
        {m_removeSamplesAction, tr("Remove the bundled sample runs from the store")},
        {m_installSamplesAction, tr("Add the bundled sample runs (transcribed from the Korvet benchmark page) again")},
    };
    for (const auto &w : writes) {
        w.action->setEnabled(!readOnly && !m_writer->isBusy());
        w.action->setToolTip(readOnly ? why : w.tip);
    }
    m_library->setRemovalRefused(why);
}

QStringList MainWindow::recentStores()
{
    return windowSettings().value(QStringLiteral("recentStores")).toStringList();
}

namespace {

bool isTeamStoreLocation(const QString &location)
{
    return sql::isPostgresUri(location.toStdString());
}

// A file by its absolute path; a team store by its URI as given (it has no password: refused).
QString storeIdentity(const QString &location)
{
    return isTeamStoreLocation(location) ? location : QFileInfo(location).absoluteFilePath();
}

} // namespace

QString MainWindow::storeTitle(const QString &location)
{
    if (!isTeamStoreLocation(location))
        return QFileInfo(location).fileName();
    // A URI libpq takes but QUrl does not (several hosts): up to its options.
    const QUrl url(location);
    if (!url.isValid())
        return location.section(QLatin1Char('?'), 0, 0);
    QString server = url.host();
    if (url.port() > 0)
        server += QLatin1Char(':') + QString::number(url.port());
    const QString database = url.path().mid(1);
    if (server.isEmpty() || database.isEmpty())
        return server.isEmpty() ? database : server;
    return tr("%1 on %2").arg(database, server);
}

void MainWindow::rememberStore(const QString &path)
{
    QSettings settings = windowSettings();
    QStringList recent = settings.value(QStringLiteral("recentStores")).toStringList();
    const QString absolute = storeIdentity(path);
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > 8)
        recent.removeLast();
    settings.setValue(QStringLiteral("recentStores"), recent);
}

void MainWindow::fillRecentMenu()
{
    m_recentMenu->clear();
    const QString here = storeIdentity(m_storePath);
    for (const QString &path : recentStores()) {
        const bool team = isTeamStoreLocation(path);
        QAction *action = m_recentMenu->addAction(team ? path : QDir::toNativeSeparators(path), this,
                                                  [this, path] { openStore(path); });
        action->setEnabled(path != here && (team || QFileInfo::exists(path)));
        if (!team && !QFileInfo::exists(path))
            action->setToolTip(tr("The file is no longer there"));
    }
    if (m_recentMenu->isEmpty())
        m_recentMenu->addAction(tr("No other stores yet"))->setEnabled(false);
}

void MainWindow::chooseStore()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Store"), QFileInfo(m_storePath).absolutePath(),
        tr("Plimsoll stores (*.db *.plimsoll *.sqlite);;All files (*)"));
    if (!path.isEmpty())
        openStore(path);
}

void MainWindow::chooseTeamStore()
{
    auto *ask = new QInputDialog(this);
    ask->setObjectName(QStringLiteral("teamStoreUri"));
    ask->setWindowTitle(tr("Open Team Store"));
    ask->setLabelText(tr("A libpq URI of the team's PostgreSQL store, without a password (libpq "
                         "reads it from ~/.pgpass, PGPASSFILE, PGPASSWORD or a service file):"));
    ask->setTextValue(QStringLiteral("postgresql://user@host:5432/plimsoll?sslmode=verify-full"));
    ask->setAttribute(Qt::WA_DeleteOnClose);
    connect(ask, &QInputDialog::textValueSelected, this, [this](const QString &uri) { openTeamStore(uri.trimmed()); });
    ask->open();
}

MainWindow *MainWindow::openTeamStore(const QString &uri)
{
    if (!isTeamStoreLocation(uri)) {
        m_banner->showMessage(MessageBanner::Kind::Error,
                              tr("“%1” is not a team store's URI: it starts with postgresql:// (a file "
                                 "opens with File ▸ Open Store…).")
                                  .arg(uri));
        return nullptr;
    }
    try {
        sql::checkPostgresUri(uri.toStdString()); // no connection: a parse, on this thread
    } catch (const StoreError &e) {
        m_banner->showMessage(MessageBanner::Kind::Error, QString::fromUtf8(e.what()));
        return nullptr;
    }
    return openStore(uri);
}

MainWindow *MainWindow::openStore(const QString &path)
{
    const QString absolute = storeIdentity(path);
    for (QWidget *top : QApplication::topLevelWidgets()) {
        auto *window = qobject_cast<MainWindow *>(top);
        if (window && storeIdentity(window->storePath()) == absolute) {
            window->show();
            window->raise();
            window->activateWindow();
            return window;
        }
    }
    auto *window = new MainWindow(absolute);
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->show();
    // An existing file only: a store that cannot be read says so in that window's banner.
    window->start(false);
    return window;
}

} // namespace plimsoll
