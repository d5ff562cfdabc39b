#include "ui/views/kubernetesjobdialog.h"

#include "ui/backgroundpool.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFont>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace plimsoll {

namespace {

QString text(const std::string &s) { return QString::fromStdString(s); }

} // namespace

KubernetesJobDialog::KubernetesJobDialog(const RunConfig &config, const KubernetesFleetRequest &last, QWidget *parent)
    : QDialog(parent), m_config(config)
{
    setObjectName(QStringLiteral("kubernetesJobDialog"));
    const QString agents = config.agents == 1 ? tr("1 agent") : tr("%1 agents").arg(config.agents);
    setWindowTitle(tr("Kubernetes Job of %1").arg(agents));
    const auto field = [this](const QString &name, const std::string &value, const QString &placeholder,
                              const QString &tip) {
        auto *edit = new QLineEdit(text(value), this);
        edit->setObjectName(name);
        edit->setPlaceholderText(placeholder);
        edit->setToolTip(tip);
        return edit;
    };
    const KubernetesJobSpec &job = last.job;
    m_image = field(QStringLiteral("kubernetesImage"), job.image, tr("REGISTRY/plimsoll:VERSION"),
                    tr("An image with plimsoll on its PATH (packaging/Containerfile)"));
    m_namespace = field(QStringLiteral("kubernetesNamespace"), job.nameSpace, tr("kubectl's"),
                        tr("The Job's namespace; empty: the one of kubectl's context"));
    m_secret = field(QStringLiteral("kubernetesSecret"), job.clientPropertiesSecret, tr("none (plaintext)"),
                     tr("A Secret holding the client properties under client.properties: kubectl create secret "
                        "generic NAME --from-file=client.properties"));
    m_cpu = field(QStringLiteral("kubernetesCpu"), job.cpuRequest, tr("not set"), tr("Each agent's CPU request: 500m, 2"));
    m_memory = field(QStringLiteral("kubernetesMemory"), job.memoryRequest, tr("not set"),
                     tr("Each agent's memory request: 512Mi, 4Gi"));
    QStringList selectors;
    for (const auto &s : last.nodeSelectors)
        selectors << text(s);
    m_nodeSelectors = new QLineEdit(selectors.join(QStringLiteral(", ")), this);
    m_nodeSelectors->setObjectName(QStringLiteral("kubernetesNodeSelectors"));
    m_nodeSelectors->setPlaceholderText(tr("key=value, …"));
    m_nodeSelectors->setToolTip(tr("Labels the agents' nodes must carry"));
    m_margin = field(QStringLiteral("kubernetesMargin"), last.startMargin, QString(),
                     tr("From writing the Job to the agents' start instant: apply it within this"));
    m_dir = field(QStringLiteral("kubernetesDir"), last.outDir.empty() ? QDir::homePath().toStdString() : last.outDir,
                  QString(), tr("The directory the manifest is written to"));
    auto *browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Write the Job to"), m_dir->text());
        if (!dir.isEmpty())
            m_dir->setText(dir);
    });
    auto *dirRow = new QHBoxLayout;
    dirRow->addWidget(m_dir, 1);
    dirRow->addWidget(browse);
    auto *form = new QFormLayout;
    form->addRow(tr("Image"), m_image);
    form->addRow(tr("Namespace"), m_namespace);
    form->addRow(tr("Client secret"), m_secret);
    form->addRow(tr("CPU request"), m_cpu);
    form->addRow(tr("Memory request"), m_memory);
    form->addRow(tr("Node selectors"), m_nodeSelectors);
    form->addRow(tr("Start margin"), m_margin);
    form->addRow(tr("Directory"), dirRow);
    m_status = new QLabel(tr("%1 of the form's run, each with its clients; records and rate the fleet's.").arg(agents),
                          this);
    m_status->setObjectName(QStringLiteral("kubernetesStatus"));
    m_status->setWordWrap(true);
    m_report = new QPlainTextEdit(this);
    m_report->setObjectName(QStringLiteral("kubernetesReport"));
    m_report->setReadOnly(true);
    m_report->setLineWrapMode(QPlainTextEdit::NoWrap); // a command a line, as it is copied
    m_report->setFont(QFont(QStringLiteral("DejaVu Sans Mono"), 9));
    m_report->setPlaceholderText(tr("The commands that apply the Job, gather its pods' logs and delete it"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_write = buttons->addButton(tr("Write Job"), QDialogButtonBox::ActionRole);
    m_write->setObjectName(QStringLiteral("kubernetesWrite"));
    connect(m_write, &QPushButton::clicked, this, &KubernetesJobDialog::write);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(&m_writer, &QFutureWatcher<KubernetesFleetWritten>::finished, this, [this] {
        const KubernetesFleetWritten w = m_writer.result();
        m_write->setEnabled(true);
        m_status->setText(w.ok() ? tr("Written. Apply it before the agents' start instant:") : text(w.error));
        m_report->setPlainText(text(w.report));
        emit written(text(w.file), text(w.error));
    });
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(m_report, 1);
    layout->addWidget(buttons);
    resize(760, 520);
}

bool KubernetesJobDialog::openFor(RunConfig config, KubernetesFleetRequest *remember, QWidget *parent,
                                  QString *problem)
{
    config.fleetRequested = true;
    if (const std::string refused = config.validate(); !refused.empty()) {
        *problem = text(refused);
        return false;
    }
    auto *dialog = new KubernetesJobDialog(config, *remember, parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &KubernetesJobDialog::written, parent, [dialog, remember] { *remember = dialog->request(); });
    dialog->open();
    return true;
}

KubernetesFleetRequest KubernetesJobDialog::request() const
{
    KubernetesFleetRequest r;
    const auto value = [](const QLineEdit *e) { return e->text().trimmed().toStdString(); };
    r.job.image = value(m_image);
    r.job.nameSpace = value(m_namespace);
    r.job.clientPropertiesSecret = value(m_secret);
    r.job.cpuRequest = value(m_cpu);
    r.job.memoryRequest = value(m_memory);
    for (const QString &s : m_nodeSelectors->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!s.trimmed().isEmpty())
            r.nodeSelectors.push_back(s.trimmed().toStdString());
    r.startMargin = value(m_margin);
    r.outDir = value(m_dir);
    return r;
}

QString KubernetesJobDialog::report() const { return m_report->toPlainText(); }

void KubernetesJobDialog::write()
{
    m_write->setEnabled(false);
    m_status->setText(tr("Writing…"));
    m_writer.setFuture(QtConcurrent::run(backgroundPool(), [config = m_config, request = request()] {
        return writeKubernetesFleet(config, request);
    }));
}

} // namespace plimsoll
