#include "ui/views/benchview.h"
#include "ui/charts/chartexport.h"

#include "model/core/catalog.h"
#include "runner/clientproperties.h"

#include "model/core/units.h"
#include "runner/benchconfig.h"
#include "runner/benchrequest.h"
#include "ui/views/benchworker.h"
#include "ui/views/kubernetesjobdialog.h"
#include "ui/charts/niceaxis.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTabWidget>
#include <QTableWidget>
#include <QHeaderView>
#include <QFileDialog>
#include <QLegend>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QThread>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

namespace plimsoll {

ViewIdentity BenchView::identity()
{
    return {QStringLiteral("bench"), tr("Bench"), QStyle::SP_MediaPlay};
}

BenchView::BenchView(const QString &storePath, QWidget *parent)
    : StoreView(storePath, identity(), parent)
{
    setObjectName(QStringLiteral("benchView"));
    // Every default from the one request the CLI fills too (runner/benchrequest.h).
    const BenchRequest defaults;
    m_bootstrap = new QLineEdit(QString::fromStdString(defaults.config.bootstrapServers), this);
    m_bootstrap->setObjectName(QStringLiteral("benchBootstrap"));
    m_bootstrap->setToolTip(tr("Kafka bootstrap servers, or embedded for librdkafka's mock cluster (not a broker)"));
    m_workload = new QComboBox(this);
    m_workload->setObjectName(QStringLiteral("benchWorkload"));
    for (const char *name : {"roundtrip", "producer", "consumer", "ramp", "probe", "offload"})
        m_workload->addItem(QString::fromLatin1(name));
    m_workload->setItemData(m_workload->count() - 1,
                            tr("The offload record: archived bytes/s while a backlog drains to the remote tier, read "
                               "from the brokers' metrics (Ramp and collectors ▸ Broker metrics); Archive streams "
                               "states the partitions archiving in parallel"),
                            Qt::ToolTipRole);
    m_topic = new QLineEdit(this);
    m_topic->setPlaceholderText(tr("new plimsoll-benchmark-<uuid>"));
    m_records = new QSpinBox(this);
    m_records->setRange(1, 100000000);
    m_records->setValue(100000);
    m_records->setGroupSeparatorShown(true);
    m_rate = new QLineEdit(QString::fromStdString(defaults.rate), this);
    m_recordSize = new QLineEdit(QString::fromStdString(defaults.recordSize), this);
    m_partitions = new QSpinBox(this);
    m_partitions->setRange(int(BenchRequest::kPartitions.lo), int(BenchRequest::kPartitions.hi));
    m_partitions->setValue(defaults.config.partitions);
    // The offload record's streams: not stated unless the user says so, as on the CLI; the
    // form's Partitions is for the topic a producer creates.
    m_archiveStreams = new QSpinBox(this);
    m_archiveStreams->setObjectName(QStringLiteral("benchArchiveStreams"));
    m_archiveStreams->setRange(0, int(OffloadRequest::kPartitions.hi));
    m_archiveStreams->setSpecialValueText(tr("not stated"));
    m_archiveStreams->setValue(OffloadRequest().partitions);
    m_archiveStreams->setToolTip(tr("Offload: the partitions whose segments archive in parallel, stored with the "
                                    "record (the CLI's --partitions); records at several counts give Sizing its "
                                    "offload fit, a record that does not state them gives it nothing"));
    m_clients = new QSpinBox(this);
    m_clients->setRange(1, 64);
    m_clients->setValue(defaults.config.producerClients);
    m_clients->setToolTip(tr("Producer and consumer clients, each; with several agents, each agent's"));
    m_agents = new QSpinBox(this);
    m_agents->setObjectName(QStringLiteral("benchAgents"));
    m_agents->setRange(int(BenchRequest::kAgents.lo), 64);
    m_agents->setValue(defaults.config.agents);
    m_agents->setPrefix(tr("× "));
    m_agents->setSuffix(tr(" agent"));
    connect(m_agents, &QSpinBox::valueChanged, m_agents,
            [this](int n) { m_agents->setSuffix(n == 1 ? tr(" agent") : tr(" agents")); });
    m_agents->setToolTip(tr("Agent processes on this machine sharing the run (the CLI's --agents): clients are each "
                            "agent's, records and rate the fleet's; the result keeps every agent's rate"));
    // Short enough to read whole beside the form's fields in a 1024 px window; the rest is in
    // its tooltip.
    m_embedded = new QCheckBox(tr("Embedded mock cluster"), this);
    m_embedded->setObjectName(QStringLiteral("benchEmbedded"));
    m_embedded->setToolTip(tr("librdkafka's mock cluster in this process, not a real broker: tries a workload "
                              "with no cluster; the numbers describe the client (the CLI's --embedded)"));
    connect(m_embedded, &QCheckBox::toggled, m_bootstrap, [this](bool on) { m_bootstrap->setEnabled(!on); });
    auto line = [this](const char *name, const std::string &text, const QString &placeholder, const QString &tip) {
        auto *e = new QLineEdit(QString::fromStdString(text), this);
        e->setObjectName(QLatin1String(name));
        e->setPlaceholderText(placeholder);
        e->setToolTip(tip);
        return e;
    };
    m_duration = line("benchDuration", defaults.duration, tr("the records above (ramp: 10 s a step)"),
                      tr("Run for this long instead of a record count: 30s, 2m, PT1M (a ramp: each "
                         "step's window; the CLI's --duration)"));
    m_warmup = line("benchWarmup", defaults.warmup, QString(),
                    tr("Warm-up before measuring (a ramp: before each step's window; --warmup)"));
    m_p99Limit = line("benchP99Limit", defaults.p99Limit, QString(),
                      tr("Ramp: a step whose produce p99 exceeds this is saturated (--p99-limit)"));
    m_continue = new QCheckBox(tr("Run every step, past saturation"), this);
    m_continue->setObjectName(QStringLiteral("benchContinue"));
    m_acks = new QComboBox(this);
    m_acks->addItems({QStringLiteral("all"), QStringLiteral("1"), QStringLiteral("0")});
    m_steps = new QLineEdit(QStringLiteral("1,2,4"), this);
    m_steps->setObjectName(QStringLiteral("benchSteps"));
    m_steps->setToolTip(tr("Ramp: producer clients per step, consumers per step of a consume ramp, or "
                           "agents per step of a fleet ramp"));
    m_rampOf = new QComboBox(this);
    m_rampOf->setObjectName(QStringLiteral("benchRampOf"));
    m_rampOf->addItem(tr("producers"), QStringLiteral("producers"));
    m_rampOf->addItem(tr("consumers (over a backlog)"), QStringLiteral("consumers"));
    m_rampOf->addItem(tr("agents (a local fleet each)"), QStringLiteral("agents"));
    m_rampOf->setToolTip(tr("What a ramp's steps add: producer clients, consumers in a group "
                            "reading a backlog (--ramp), or agents, each with the clients and rate "
                            "above (--agents-steps)"));
    m_backlog = line("benchBacklog", defaults.backlog, tr("none: read the topic from its beginning"),
                     tr("Consume ramp: records to preload once, every one acknowledged before the "
                        "first step (--backlog)"));
    m_tiered = new QCheckBox(tr("Tiered (backlog archived)"), this);
    m_tiered->setObjectName(QStringLiteral("benchTiered"));
    m_tiered->setToolTip(tr("The backlog is offloaded to the archive before it is read: every window's remote reads are checked in the broker metrics; the fetch p99 "
                            "limit becomes 5 s (--tiered)"));
    m_s3Get = line("benchS3GetMetric", defaults.s3GetMetric, tr("none"),
                   tr("Tiered: the Prometheus counter of S3 GETs in the broker metrics, for the page's "
                      "attribution of a rising fetch p99 (--s3-get-metric)"));
    m_brokerMetrics = line("benchBrokerMetrics", {}, tr("none: no broker CPU or latency"),
                           tr("Ramp: the brokers' Prometheus /metrics URLs, comma-separated: CPU and broker-side "
                              "latency per step (--broker-metrics)"));
    m_redisShards = line("benchRedisShards", {}, tr("none: no shard CPU"),
                         tr("Ramp: Redis shards HOST:PORT, comma-separated, whose INFO CPU gives the hottest "
                            "shard's CPU per step (--redis)"));
    const auto rampKind = [this] {
        const bool consume = m_rampOf->currentData().toString() == QLatin1String("consumers");
        m_backlog->setEnabled(consume);
        m_tiered->setEnabled(consume);
        m_s3Get->setEnabled(consume && m_tiered->isChecked());
        m_p99Limit->setToolTip(consume ? tr("Consume ramp: a step whose fetch p99 exceeds this is saturated (--fetch-p99-limit)")
                                       : tr("Ramp: a step whose produce p99 exceeds this is saturated (--p99-limit)"));
        m_p99Limit->setText(QString::fromLatin1(!consume                ? BenchRequest{}.p99Limit.c_str()
                                                : m_tiered->isChecked() ? BenchRequest::kTieredFetchP99Limit
                                                                        : BenchRequest::kFetchP99Limit));
    };
    connect(m_tiered, &QCheckBox::toggled, this, rampKind);
    connect(m_rampOf, &QComboBox::currentIndexChanged, this, rampKind);
    rampKind();
    // TLS and SASL settings come from a Kafka client .properties file, never typed here.
    m_commandConfig = new QLineEdit(this);
    m_commandConfig->setObjectName(QStringLiteral("benchCommandConfig"));
    m_commandConfig->setPlaceholderText(tr("none (plaintext)"));
    auto *browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("Kafka client properties"), QString(),
            tr("Properties (*.properties *.conf);;All files (*)"));
        if (!file.isEmpty())
            m_commandConfig->setText(file);
    });
    auto *configRow = new QHBoxLayout;
    configRow->addWidget(m_commandConfig, 1);
    configRow->addWidget(browse);

    auto *form = new QFormLayout;
    form->addRow(QString(), m_embedded);
    form->addRow(tr("Bootstrap servers"), m_bootstrap);
    form->addRow(tr("Client config"), configRow);
    form->addRow(tr("Workload"), m_workload);
    form->addRow(tr("Topic"), m_topic);
    form->addRow(tr("Records"), m_records);
    form->addRow(tr("Duration"), m_duration);
    form->addRow(tr("Warm-up"), m_warmup);
    form->addRow(tr("Rate (records/s)"), m_rate);
    m_rate->setToolTip(tr("'unlimited' or records/s as on the command line: 5000, 10k, 1.2M"));
    form->addRow(tr("Record size"), m_recordSize);
    form->addRow(tr("Partitions"), m_partitions);
    auto *clientsRow = new QHBoxLayout;
    clientsRow->addWidget(m_clients, 1);
    clientsRow->addWidget(m_agents, 1);
    form->addRow(tr("Clients"), clientsRow);
    form->addRow(tr("Acks"), m_acks);
    // A ramp's own settings and its collectors on a page of their own: with them, the form
    // would not fit a 700 px screen.
    auto *rampForm = new QFormLayout;
    rampForm->addRow(tr("Ramp of"), m_rampOf);
    rampForm->addRow(tr("Ramp steps"), m_steps);
    rampForm->addRow(tr("p99 limit"), m_p99Limit);
    rampForm->addRow(QString(), m_continue);
    rampForm->addRow(tr("Backlog (records)"), m_backlog);
    rampForm->addRow(QString(), m_tiered);
    rampForm->addRow(tr("S3 GET metric"), m_s3Get);
    rampForm->addRow(tr("Broker metrics"), m_brokerMetrics);
    rampForm->addRow(tr("Archive streams"), m_archiveStreams);
    rampForm->addRow(tr("Redis shards"), m_redisShards);
    auto *formTabs = new QTabWidget(this);
    formTabs->setObjectName(QStringLiteral("benchFormTabs"));
    formTabs->setDocumentMode(true);
    auto *runPage = new QWidget(formTabs);
    runPage->setLayout(form);
    auto *rampPage = new QWidget(formTabs);
    rampPage->setLayout(rampForm);
    formTabs->addTab(runPage, tr("Run"));
    formTabs->addTab(rampPage, tr("Ramp and collectors"));
    // The ramp's page is where a ramp is set up: shown when the workload becomes one.
    connect(m_workload, &QComboBox::currentTextChanged, formTabs, [formTabs](const QString &w) {
        if (w == QLatin1String("ramp") || w == QLatin1String("offload"))
            formTabs->setCurrentIndex(1);
    });

    m_start = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Start"), this);
    m_start->setObjectName(QStringLiteral("benchStart"));
    m_stop = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Stop"), this);
    m_stop->setObjectName(QStringLiteral("benchStop"));
    m_stop->setEnabled(false);
    auto *kubernetes = new QPushButton(tr("Kubernetes Job…"), this);
    kubernetes->setObjectName(QStringLiteral("benchKubernetes"));
    kubernetes->setToolTip(tr("The form's run as an Indexed Job of its agents, written for you to apply"));
    connect(kubernetes, &QPushButton::clicked, this, [this] {
        RunConfig config;
        QString problem;
        if (!readForm(config, problem) || !KubernetesJobDialog::openFor(config, &m_kubernetes, this, &problem))
            m_status->setText(problem);
    });
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_stop);
    buttons->addWidget(kubernetes);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_status = new QLabel(tr("Idle."), this);
    m_status->setObjectName(QStringLiteral("benchStatus"));
    m_status->setWordWrap(true);
    m_summary = new QPlainTextEdit(this);
    m_summary->setObjectName(QStringLiteral("benchSummary"));
    m_summary->setReadOnly(true);
    m_summary->setFont(QFont(QStringLiteral("DejaVu Sans Mono"), 9));

    auto *left = new QVBoxLayout;
    left->addWidget(formTabs);
    left->addLayout(buttons);
    left->addWidget(m_progress);
    left->addWidget(m_status);
    left->addWidget(m_summary, 1);

    m_chart = new QChart;
    m_throughput = new QLineSeries(m_chart);
    m_ackP99 = new QLineSeries(m_chart);
    m_e2eP99 = new QLineSeries(m_chart);
    m_ackP50 = new QLineSeries(m_chart);
    m_e2eP50 = new QLineSeries(m_chart);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    // A segment of each line, so a median reads dashed beside its tail's solid line rather
    // than as a second square of the same colour.
    m_chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    // A point smaller than the axes' labels: the five names fit the chart's width in a 1024 px
    // window, where the form beside it and the sidebar take the rest.
    QFont legendFont = m_chart->legend()->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() - 1);
    m_chart->legend()->setFont(legendFont);
    for (auto *series : {m_throughput, m_ackP99, m_e2eP99, m_ackP50, m_e2eP50})
        m_chart->addSeries(series);
    // Each median dashed in a darker tone of its tail's colour (the theme has coloured the
    // tails by now): the pair reads as one latency, and their legend markers still differ.
    for (auto [median, tail] : {std::pair{m_ackP50, m_ackP99}, std::pair{m_e2eP50, m_e2eP99}}) {
        QPen pen = tail->pen();
        pen.setStyle(Qt::DashLine);
        pen.setColor(tail->pen().color().darker(150));
        median->setPen(pen);
    }
    m_timeAxis = new QValueAxis(m_chart);
    m_timeAxis->setTitleText(tr("elapsed (s)"));
    m_rateAxis = new QValueAxis(m_chart);
    m_latencyAxis = new QValueAxis(m_chart);
    labelChart(false);
    resetAxes();
    m_chart->addAxis(m_timeAxis, Qt::AlignBottom);
    m_chart->addAxis(m_rateAxis, Qt::AlignLeft);
    m_chart->addAxis(m_latencyAxis, Qt::AlignRight);
    m_throughput->attachAxis(m_timeAxis);
    m_throughput->attachAxis(m_rateAxis);
    for (auto *series : {m_ackP99, m_e2eP99, m_ackP50, m_e2eP50}) {
        series->attachAxis(m_timeAxis);
        series->attachAxis(m_latencyAxis);
    }
    auto *chartView = new QChartView(m_chart, this);
    enableChartExport(chartView, QStringLiteral("bench"));
    chartView->setObjectName(QStringLiteral("benchChart"));
    chartView->setRenderHint(QPainter::Antialiasing);

    // Ramps: one row per step with its verdict and the component that saturated.
    m_steptable = new QTableWidget(0, 5, this);
    m_steptable->setObjectName(QStringLiteral("benchStepTable"));
    m_steptable->setHorizontalHeaderLabels(
        {tr("Step"), tr("Records/s"), tr("Ack p99"), tr("Saturated"), tr("Bottleneck")});
    m_steptable->horizontalHeader()->setStretchLastSection(true);
    m_steptable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_steptable->verticalHeader()->hide();
    m_steptable->setMaximumHeight(170);
    auto *right = new QVBoxLayout;
    right->addWidget(chartView, 1);
    right->addWidget(m_steptable);

    auto *layout = new QHBoxLayout(this);
    auto *leftWidget = new QWidget(this);
    leftWidget->setLayout(left);
    leftWidget->setMaximumWidth(380);
    layout->addWidget(leftWidget);
    layout->addLayout(right, 1);

    connect(m_start, &QPushButton::clicked, this, &BenchView::start);
    connect(m_stop, &QPushButton::clicked, this, &BenchView::stop);
}

BenchView::~BenchView()
{
    // Closing the window mid-run: stop the run and wait for its bounded flush.
    if (m_worker)
        m_worker->stop();
    if (m_thread) {
        m_thread->quit();
        m_thread->wait();
    }
}


void BenchView::setBootstrapServers(const QString &servers) { m_bootstrap->setText(servers); }
void BenchView::setRecords(int records) { m_records->setValue(records); }
QString BenchView::statusText() const { return m_status->text(); }

bool BenchView::readForm(RunConfig &c, QString &problem) const
{
    // The form's text into the request the CLI's options fill, then the one translation of it
    // (runner/benchrequest.h): the same units, domains and defaults as `plimsoll bench`.
    BenchRequest r;
    const auto workload = parseWorkload(m_workload->currentText().toStdString());
    r.config.workload = workload.value_or(Workload::Roundtrip);
    r.config.bootstrapServers = m_embedded->isChecked() ? std::string("embedded")
                                                        : m_bootstrap->text().trimmed().toStdString();
    r.config.topic = m_topic->text().trimmed().toStdString();
    r.config.createTopic = !r.config.topic.empty() && r.config.workload != Workload::Consumer;
    r.config.partitions = m_partitions->value();
    r.clients = m_clients->value();
    r.config.agents = m_agents->value();
    r.config.fleetRequested = r.config.agents > 1;
    r.config.acks = m_acks->currentText().toStdString();
    r.recordSize = m_recordSize->text().trimmed().toStdString();
    r.rate = m_rate->text().trimmed().toStdString();
    r.duration = m_duration->text().trimmed().toStdString();
    r.warmup = m_warmup->text().trimmed().toStdString();
    if (r.warmup.empty())
        r.warmup = BenchRequest{}.warmup;
    // A ramp and a probe measure time windows; the others a record count unless a duration is
    // given.
    const bool timed = r.config.workload == Workload::Ramp || r.config.workload == Workload::Probe;
    if (!timed && r.duration.empty())
        r.records = std::to_string(m_records->value());
    if (r.config.workload == Workload::Ramp) {
        const std::string steps = m_steps->text().remove(QLatin1Char(' ')).toStdString();
        r.ramp = m_rampOf->currentData().toString().toStdString();
        (r.ramp == "agents" ? r.agentsSteps : r.steps) = steps;
        if (r.ramp == "agents")
            r.ramp = "producers"; // a fleet ramp's agents each run the produce ramp's step
        const auto list = [](const QLineEdit *e) {
            const std::string text = e->text().remove(QLatin1Char(' ')).toStdString();
            return text.empty() ? std::vector<std::string>{} : std::vector<std::string>{text};
        };
        r.brokerMetrics = list(m_brokerMetrics);
        r.redis = list(m_redisShards);
        if (r.ramp == "consumers") {
            r.fetchP99Limit = m_p99Limit->text().trimmed().toStdString();
            r.backlog = m_backlog->text().trimmed().toStdString();
            r.tiered = m_tiered->isChecked();
            r.s3GetMetric = m_tiered->isChecked() ? m_s3Get->text().trimmed().toStdString() : std::string();
        } else {
            r.p99Limit = m_p99Limit->text().trimmed().toStdString();
        }
        r.config.continuePastSaturation = m_continue->isChecked();
    }
    r.commandConfig = m_commandConfig->text().trimmed().toStdString();
    std::string error = resolveBenchRequest(r);
    if (error.empty() && (r.config.fleet() || r.config.agentRamp()))
        error = r.config.validate(); // what only a fleet refuses, before any agent starts
    problem = QString::fromStdString(error);
    if (error.empty())
        c = r.config;
    return error.empty();
}

void BenchView::start()
{
    if (m_worker)
        return;
    if (m_workload->currentText() == QLatin1String("offload")) {
        startOffload();
        return;
    }
    RunConfig config;
    QString problem;
    if (!readForm(config, problem)) {
        m_status->setText(problem);
        return;
    }
    auto *worker = new BenchWorker(config, storePath());
    worker->setAgentExecutable(m_agentExecutable);
    launch(worker,
           config.fleet() ? tr("Running %1 agents against %2…").arg(config.agents).arg(QString::fromStdString(config.bootstrapServers))
           : config.embedded() ? tr("Running against the embedded mock cluster (not a real broker)…")
                             : tr("Running against %1…").arg(QString::fromStdString(config.bootstrapServers)));
}

// `bench offload` from the form: the brokers' metrics URLs and the streams archiving (when
// stated), the request's defaults for the rest.
void BenchView::startOffload()
{
    OffloadRequest request;
    if (const QString urls = m_brokerMetrics->text().remove(QLatin1Char(' ')); !urls.isEmpty())
        request.brokerMetrics = {urls.toStdString()};
    request.partitions = m_archiveStreams->value();
    OffloadRecordConfig config;
    if (const std::string problem = request.resolve(&config); !problem.empty()) {
        m_status->setText(QString::fromStdString(problem));
        return;
    }
    launch(new BenchWorker(config, storePath()),
           tr("Recording the offload: the archive lag of %n broker(s) polled every %1 until it is zero twice in a "
              "row (at most %2)…",
              nullptr, int(config.brokerMetricsUrls.size()))
               .arg(QString::fromStdString(request.interval), QString::fromStdString(request.drainTimeout)),
           true);
}

void BenchView::launch(BenchWorker *worker, const QString &status, bool offload)
{
    for (auto *series : {m_throughput, m_ackP99, m_e2eP99, m_ackP50, m_e2eP50})
        series->clear();
    labelChart(offload);
    resetAxes();
    m_summary->clear();
    m_progress->setValue(0);
    m_status->setText(status);
    m_thread = new QThread(this);
    m_worker = worker;
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::started, m_worker, &BenchWorker::run);
    connect(m_worker, &BenchWorker::snapshotReady, this, &BenchView::showSnapshot);
    connect(m_worker, &BenchWorker::benchFinished, this, &BenchView::showResult);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_start->setEnabled(false);
    m_stop->setEnabled(true);
    m_thread->start();
}

void BenchView::stop()
{
    if (!m_worker)
        return;
    m_worker->stop(); // an atomic flag: returns at once
    m_stop->setEnabled(false);
    m_status->setText(tr("Stopping: flushing what is queued, keeping the partial result…"));
}

QString BenchView::resultHeadline(const BenchResult &result)
{
    const std::string status = result.status();
    if (status == "interrupted")
        return tr("Stopped: interrupted — partial result kept (see below).");
    if (status != "ok")
        return tr("Finished: FAILED — partial result kept (see below).");
    // What the run measured, in a line: a ramp's saturation, or the headline latency.
    QString text;
    const ScenarioResult *saturated = nullptr;
    int steps = 0;
    for (const ScenarioResult &s : result.scenarios)
        if (s.kind == "ramp-step") {
            ++steps;
            if (s.saturated && !saturated)
                saturated = &s;
        }
    const auto metric = [](const ScenarioResult &s, const char *name) {
        const auto it = s.metrics.find(name);
        return it == s.metrics.end() ? QString() : QString::fromStdString(formatMetric(name, it->second));
    };
    const auto offload = std::find_if(result.scenarios.begin(), result.scenarios.end(),
                                      [](const ScenarioResult &s) { return s.kind == "offload"; });
    if (offload != result.scenarios.end()) {
        const auto segments = offload->metrics.find("offload.segments_per_s");
        text = tr("Finished: archived %1 (%2 segments/s), drained in %3.")
                   .arg(metric(*offload, "bytes_per_s"),
                        segments == offload->metrics.end() ? QStringLiteral("—") : QString::number(segments->second, 'g', 3),
                        metric(*offload, "offload.drain_s"));
    } else if (steps > 0) {
        text = saturated ? tr("Finished: saturated at %1 (%2) after %3 step(s).")
                               .arg(QString::fromStdString(saturated->name), QString::fromStdString(saturated->bottleneck))
                               .arg(steps)
                         : tr("Finished: %1 step(s), none saturated.").arg(steps);
    } else if (!result.scenarios.empty()) {
        const ScenarioResult &s = result.scenarios.front();
        text = tr("Finished: %1").arg(metric(s, "records_per_s"));
        for (const char *p99 : {"ack_p99_s", "e2e_p99_s"})
            if (const QString v = metric(s, p99); !v.isEmpty())
                text += tr(", %1 %2").arg(QString::fromLatin1(p99).chopped(2).replace(QLatin1Char('_'), QLatin1Char(' ')), v);
        if (!result.agents.empty())
            text += tr(", from %1 agents").arg(result.agents.size());
        text += QLatin1Char('.');
    } else {
        text = tr("Finished.");
    }
    for (const BenchAdjustment &a : result.adjustments) // a setting the target could not honour
        text += QLatin1Char(' ') + QString::fromStdString(a.text()) + QLatin1Char('.');
    return text;
}

// A ramp's steps with their verdicts, or a fleet's agents with their shares.
void BenchView::fillStepTable(const BenchResult &result)
{
    m_steptable->setRowCount(0);
    const auto put = [this](int row, const QStringList &cells) {
        for (int c = 0; c < cells.size(); ++c)
            m_steptable->setItem(row, c, new QTableWidgetItem(cells[c]));
    };
    if (!result.agents.empty()) {
        m_steptable->setHorizontalHeaderLabels({tr("Agent"), tr("Records/s"), tr("Ack p99"), tr("Status"), tr("Errors")});
        for (const auto &a : result.agents) {
            const auto metric = [&a](const char *name) {
                return a.contains(name) ? QString::fromStdString(formatMetric(name, a[name].get<double>()))
                                        : QStringLiteral("—");
            };
            const auto errors = a.value("errors", nlohmann::json::array());
            const int row = m_steptable->rowCount();
            m_steptable->insertRow(row);
            put(row, {tr("agent %1").arg(a.value("index", -1)), metric("records_per_s"), metric("latency_p99_s"),
                      QString::fromStdString(a.value("status", "")),
                      errors.empty() ? QString() : QString::fromStdString(errors[0].get<std::string>())});
        }
        return;
    }
    m_steptable->setHorizontalHeaderLabels({tr("Step"), tr("Records/s"), tr("Ack p99"), tr("Saturated"), tr("Bottleneck")});
    for (const ScenarioResult &step : result.scenarios) {
        if (step.kind != "ramp-step")
            continue;
        const int row = m_steptable->rowCount();
        m_steptable->insertRow(row);
        const auto metric = [&step](const char *name) {
            const auto it = step.metrics.find(name);
            return it == step.metrics.end() ? QStringLiteral("—")
                                             : QString::fromStdString(formatMetric(name, it->second));
        };
        put(row, {QString::fromStdString(step.name), metric("records_per_s"), metric("ack_p99_s"),
                  step.saturated ? tr("yes") : tr("no"), QString::fromStdString(step.bottleneck)});
    }
}

void BenchView::showResult(const BenchResult &result, const QString &runKey, const QString &storeError)
{
    QString text = QString::fromStdString(result.toText());
    if (!runKey.isEmpty())
        text += tr("stored as run %1\n").arg(runKey);
    if (!storeError.isEmpty())
        text += tr("not stored: %1\n").arg(storeError);
    m_summary->setPlainText(text);
    fillStepTable(result);
    m_steptable->resizeColumnsToContents();
    m_status->setText(resultHeadline(result));
    if (result.ok() && !result.partial)
        m_progress->setValue(1000);
    m_thread->quit();
    m_thread->wait();
    m_thread->deleteLater();
    m_thread = nullptr;
    m_worker = nullptr;
    m_start->setEnabled(true);
    m_stop->setEnabled(false);
    if (!runKey.isEmpty())
        emit storeWritten();
    emit benchFinished(result);
}

} // namespace plimsoll
