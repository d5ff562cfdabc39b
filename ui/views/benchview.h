#pragma once
// The Bench view: a workload form, Start/Stop, live throughput and latency charts fed by
// the worker's throttled snapshots, and the final verdict. The run happens on a
// BenchWorker thread; this view only reacts to its queued signals.

#include "ui/views/storeview.h"

#include "runner/kubernetesfleet.h"
#include "ui/views/benchmetatypes.h"
#include "ui/views/viewwidgets.h"

namespace plimsoll {

class BenchWorker;
struct RunConfig;

class BenchView : public StoreView
{
    Q_OBJECT
public:
    // Its sidebar entry, menu item and settings key, known before the view is built.
    static ViewIdentity identity();
    explicit BenchView(const QString &storePath, QWidget *parent = nullptr);
    ~BenchView() override;

    void reload() override {}

    bool running() const { return m_worker != nullptr; }
    // For tests and scripts: fill the form's bootstrap field and start.
    void setBootstrapServers(const QString &servers);
    void setRecords(int records);
    // A fleet's agents run this plimsoll binary (empty: this process's own, the usual case).
    void setAgentExecutable(const QString &path) { m_agentExecutable = path; }
    // The form's fields by their object names (benchWorkload, benchEmbedded, benchDuration, …).
    QWidget *field(const QString &name) const { return findChild<QWidget *>(name); }
    QString statusText() const;
    // The line the status shows when a run ends: what it measured (a ramp's saturation, the
    // headline latency), or that it was stopped or failed.
    static QString resultHeadline(const BenchResult &result);

public slots:
    void start();
    void stop();

signals:
    void benchFinished(const plimsoll::BenchResult &result);

private:
    void showSnapshot(const BenchSnapshot &snapshot);
    void resetAxes();
    void showResult(const BenchResult &result, const QString &runKey, const QString &storeError);
    void fillStepTable(const BenchResult &result);
    bool readForm(RunConfig &config, QString &problem) const;
    void startOffload();
    // Clears the chart and summary, says `status`, and runs the worker on a thread of its own;
    // the view reacts to its signals.
    void launch(BenchWorker *worker, const QString &status, bool offload = false);
    void labelChart(bool offload);

    QLineEdit *m_bootstrap = nullptr;
    QComboBox *m_workload = nullptr;
    QLineEdit *m_topic = nullptr;
    QSpinBox *m_records = nullptr;
    QLineEdit *m_rate = nullptr;
    QLineEdit *m_recordSize = nullptr;
    QSpinBox *m_partitions = nullptr;
    QSpinBox *m_archiveStreams = nullptr; // the offload record's --partitions, 0: not stated
    QSpinBox *m_clients = nullptr;
    QSpinBox *m_agents = nullptr; // agent processes sharing the run (--agents); 1: one process
    QString m_agentExecutable;
    KubernetesFleetRequest m_kubernetes; // the Kubernetes Job dialog's last entries
    QComboBox *m_acks = nullptr;
    QLineEdit *m_steps = nullptr;
    QComboBox *m_rampOf = nullptr;     // producers or consumers (--ramp)
    QLineEdit *m_backlog = nullptr;    // consume ramp: records to preload (--backlog)
    QCheckBox *m_tiered = nullptr;     // consume ramp over an offloaded backlog (--tiered)
    QLineEdit *m_s3Get = nullptr;      // tiered: the S3 GET counter (--s3-get-metric)
    QLineEdit *m_brokerMetrics = nullptr; // ramp collectors: broker /metrics URLs (--broker-metrics)
    QLineEdit *m_redisShards = nullptr;   // ramp collectors: Redis HOST:PORT list (--redis)
    QCheckBox *m_embedded = nullptr;
    QLineEdit *m_duration = nullptr;
    QLineEdit *m_warmup = nullptr;
    QLineEdit *m_p99Limit = nullptr;
    QCheckBox *m_continue = nullptr;
    QLineEdit *m_commandConfig = nullptr;
    QTableWidget *m_steptable = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_stop = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QPlainTextEdit *m_summary = nullptr;
    QChart *m_chart = nullptr;
    QLineSeries *m_throughput = nullptr;
    QLineSeries *m_ackP99 = nullptr;
    QLineSeries *m_e2eP99 = nullptr;
    QLineSeries *m_ackP50 = nullptr;
    QLineSeries *m_e2eP50 = nullptr;
    QValueAxis *m_timeAxis = nullptr;
    QValueAxis *m_rateAxis = nullptr;
    QValueAxis *m_latencyAxis = nullptr;
    bool m_offloadChart = false; // the chart plots the offload record's polls
    QThread *m_thread = nullptr;
    BenchWorker *m_worker = nullptr;
};

} // namespace plimsoll
