#include "ui/views/sizingview.h"

#include "model/sizing/placementrequest.h"

#include "model/scaling/ramppoints.h"
#include "model/store/store.h"
#include "model/core/units.h"
#include "ui/latesttask.h"
#include "ui/widgets/evidencedialog.h"
#include "ui/widgets/ratefield.h"
#include "ui/widgets/savedsizingbuttons.h"

#include <QCheckBox>
#include <QColor>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QTableWidget>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace plimsoll {

ViewIdentity SizingView::identity()
{
    return {QStringLiteral("sizing"), tr("Sizing"), QStyle::SP_ComputerIcon};
}

SizingView::SizingView(const QString &storePath, QWidget *parent) : StoreView(storePath, identity(), parent)
{
    setObjectName(QStringLiteral("sizingView"));
    m_loader = new LatestTask(this);

    auto spin = [this](const char *name, int lo, int hi, int value, const QString &suffix) {
        auto *s = new QSpinBox(this);
        s->setObjectName(QLatin1String(name));
        s->setRange(lo, hi);
        s->setValue(value);
        s->setSuffix(suffix);
        return s;
    };
    m_rate = new RateField(QStringLiteral("600k"), SizingInputs::kRate, &SizingInputs::kBytesPerS, this);
    m_rate->setObjectName(QStringLiteral("rateField"));
    m_rateSlider = new QSlider(Qt::Horizontal, this);
    m_rateSlider->setObjectName(QStringLiteral("rateSlider"));
    m_rateSlider->setRange(10, 2000); // k records/s; the field goes further
    m_rateSlider->setValue(600);
    m_rateSlider->setToolTip(tr("10k to 2M records/s; type any rate in the field"));
    m_recordSize = spin("recordSizeSpin", 1, 10 * 1024 * 1024, 700, tr(" B"));
    m_compression = new QDoubleSpinBox(this);
    m_compression->setObjectName(QStringLiteral("compressionSpin"));
    m_compression->setRange(1, 100);
    m_compression->setDecimals(1);
    m_compression->setValue(1);
    m_compression->setSuffix(QStringLiteral(" : 1"));
    m_retention = spin("retentionSpin", 1, 30 * 24 * 3600, 60, tr(" s"));
    m_replication = spin("replicationSpin", 1, 3, 2, QString());
    m_p99 = new QDoubleSpinBox(this);
    m_p99->setObjectName(QStringLiteral("p99Spin"));
    m_p99->setRange(1, 10000);
    m_p99->setDecimals(0);
    m_p99->setValue(250);
    m_p99->setSuffix(tr(" ms"));
    m_headroom = new QSlider(Qt::Horizontal, this);
    m_headroom->setObjectName(QStringLiteral("headroomSlider"));
    m_headroom->setRange(0, 100);
    m_headroomLabel = new QLabel(this);
    m_nodeLoss = new QCheckBox(tr("Survive losing one node"), this);
    m_nodeLoss->setObjectName(QStringLiteral("nodeLossCheck"));
    m_flex = new QCheckBox(tr("Redis Flex"), this);
    m_flex->setObjectName(QStringLiteral("flexCheck"));
    m_tiered = new QCheckBox(tr("Tiered offload, local retention"), this);
    m_tiered->setObjectName(QStringLiteral("tieredCheck"));
    m_localRetention = spin("localRetentionSpin", 1, 24 * 3600, 60, tr(" s"));
    m_localRetention->setEnabled(false);
    m_brokerModel = new QComboBox(this);
    m_brokerModel->setObjectName(QStringLiteral("brokerModelCombo"));
    m_brokerModel->addItem(tr("auto: the fit when it sees contention, else CPU"), QStringLiteral("auto"));
    m_brokerModel->addItem(tr("fitted: across runs over the broker count"), QStringLiteral("fitted"));
    m_brokerModel->addItem(tr("cpu: the ramp's CPU per record"), QStringLiteral("cpu"));
    m_brokerModel->addItem(tr("rule: +1 broker per ~200k"), QStringLiteral("rule"));
    m_brokerModel->setToolTip(tr("Which broker answer the sizing takes (the CLI's --broker-model)"));
    m_skewTarget = new QDoubleSpinBox(this);
    m_skewTarget->setObjectName(QStringLiteral("skewTargetSpin"));
    // The minimum stands for 0, "the measured configuration's skew" (SizingInputs::skewTarget).
    m_skewTarget->setRange(1, 64);
    m_skewTarget->setSingleStep(0.05);
    m_skewTarget->setDecimals(2);
    m_skewTarget->setSpecialValueText(tr("as measured"));
    m_skewTarget->setToolTip(tr("Largest max/mean partitions per shard the partition count may have; "
                                "'as measured' takes the skew of the configuration the ramp measured "
                                "(the CLI's --skew-target)"));
    m_goodKeyPattern = kKorvetStreamKeyPattern;
    m_keyPattern = new QLineEdit(QString::fromStdString(m_goodKeyPattern), this);
    m_keyPattern->setObjectName(QStringLiteral("keyPatternEdit"));
    m_keyPattern->setToolTip(tr("The stream key of a partition, for placement: {topic} and "
                                "{partition} are substituted (the CLI's --key-pattern)"));
    m_keyPatternError = new QLabel(this);
    m_keyPatternError->setObjectName(QStringLiteral("keyPatternError"));
    m_keyPatternError->setWordWrap(true);
    m_keyPatternError->setStyleSheet(QStringLiteral("color: #d62728;"));
    m_keyPatternError->hide();

    auto *form = new QFormLayout;
    m_rate->addBeside(m_rateSlider);
    form->addRow(tr("Target ingest"), m_rate);
    form->addRow(tr("Record size"), m_recordSize);
    form->addRow(tr("Compression"), m_compression);
    form->addRow(tr("Retention"), m_retention);
    form->addRow(tr("Replication"), m_replication);
    form->addRow(tr("p99 budget"), m_p99);
    auto *headroomRow = new QHBoxLayout;
    headroomRow->addWidget(m_headroom, 1);
    headroomRow->addWidget(m_headroomLabel);
    form->addRow(tr("Headroom"), headroomRow);
    auto *checks = new QHBoxLayout;
    checks->addWidget(m_nodeLoss);
    checks->addWidget(m_flex);
    checks->addStretch();
    form->addRow(QString(), checks);
    auto *tieredRow = new QHBoxLayout;
    tieredRow->addWidget(m_tiered);
    tieredRow->addWidget(m_localRetention);
    form->addRow(QString(), tieredRow);
    form->addRow(tr("Broker model"), m_brokerModel);
    auto *keyBox = new QVBoxLayout;
    keyBox->setSpacing(1);
    keyBox->addWidget(m_keyPattern);
    keyBox->addWidget(m_keyPatternError);
    form->addRow(tr("Stream keys"), keyBox);
    form->addRow(tr("Skew target"), m_skewTarget);
    addConsumeRows(form);
    auto *inputs = new QGroupBox(tr("Target"), this);
    inputs->setLayout(form);

    m_table = new QTableWidget(0, 3, this);
    m_table->setObjectName(QStringLiteral("sizingTable"));
    // Evidence: whose runs each number rests on (your runs, the sample runs, both).
    m_table->setHorizontalHeaderLabels({tr("Quantity"), tr("Value"), tr("Evidence")});
    // The numbers and their evidence keep their width; a narrow window elides the quantity's name
    // (it heads its reasoning below and its tooltip).
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setMinimumSectionSize(40);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->verticalHeader()->hide();
    // One line per row: the deployment reads at a glance, without scrolling at 700 px.
    const int rowHeight = fontMetrics().height() + 8;
    m_table->verticalHeader()->setDefaultSectionSize(rowHeight);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);

    m_barsBox = new QGroupBox(tr("Utilization at the target"), this);
    m_bars = new QVBoxLayout(m_barsBox);

    m_caveats = new QLabel(this);
    m_caveats->setObjectName(QStringLiteral("sizingCaveats"));
    m_caveats->setWordWrap(true);
    m_caveats->setTextFormat(Qt::RichText);
    m_caveats->setStyleSheet(QStringLiteral("QLabel { color: #8a4500; background: #fff4e5; "
                                            "border: 1px solid #f0c080; padding: 4px; }"));
    m_caveats->hide();

    m_brokerTable = new QTableWidget(0, 3, this);
    m_brokerTable->setObjectName(QStringLiteral("brokerModelsTable"));
    m_brokerTable->setHorizontalHeaderLabels({tr("Model"), tr("Brokers"), tr("From")});
    m_brokerTable->horizontalHeader()->setStretchLastSection(true);
    m_brokerTable->verticalHeader()->hide();
    m_brokerTable->verticalHeader()->setDefaultSectionSize(rowHeight);
    m_brokerTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_brokerTable->setSelectionMode(QAbstractItemView::NoSelection);
    m_brokerTable->setWordWrap(false);
    m_brokerTable->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_brokerWhy = new QLabel(this);
    m_brokerWhy->setObjectName(QStringLiteral("brokerWhy"));
    m_brokerWhy->setWordWrap(true);

    m_reasoning = new QTextBrowser(this);
    m_reasoning->setObjectName(QStringLiteral("reasoningPanel"));
    m_reasoning->setOpenLinks(false); // "N runs" lists the run keys in place
    connect(m_reasoning, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        const std::string key = url.path().toStdString();
        if (!m_expandedRuns.erase(key))
            m_expandedRuns.insert(key);
        showReasoning(true);
    });
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("sizingStatus"));
    m_status->setWordWrap(true);

    auto *left = new QVBoxLayout;
    left->addWidget(inputs);
    left->addWidget(m_barsBox);
    auto *brokers = new QGroupBox(tr("Broker count by each model"), this);
    auto *brokersLayout = new QVBoxLayout(brokers);
    brokersLayout->addWidget(m_brokerTable);
    brokersLayout->addWidget(m_brokerWhy);
    left->addWidget(brokers);
    left->addStretch();
    m_evidenceLabel = new QLabel(this);
    m_evidenceLabel->setObjectName(QStringLiteral("evidenceLabel"));
    m_evidenceLabel->setWordWrap(true);
    m_evidenceLabel->setTextFormat(Qt::PlainText);
    m_samples = newSamplesCombo(this, QStringLiteral("viewSamplesCombo"), m_evidence.samples, [this](SampleRuns samples) {
        EvidenceSelection sel = m_evidence;
        sel.samples = samples;
        if (!(sel == m_evidence))
            setEvidenceSelection(sel);
    });
    auto *choose = new QPushButton(tr("Choose runs…"), this);
    choose->setObjectName(QStringLiteral("chooseRunsButton"));
    choose->setToolTip(tr("Size from every run, the runs a filter selects, or runs picked by hand "
                          "(the CLI's --run, --scenario, --tool, --target, --since, --until)"));
    connect(choose, &QPushButton::clicked, this, &SizingView::chooseRuns);
    auto *evidenceRow = new QHBoxLayout;
    evidenceRow->addWidget(m_evidenceLabel, 1);
    evidenceRow->addWidget(m_samples);
    evidenceRow->addWidget(choose);
    // Save sizing…, Saved sizings…: at the top with the runs the sizing rests on, in sight at any
    // window height (the inputs and reasoning below scroll at 700 px).
    evidenceRow->addWidget(makeSavedSizingButtons(this));

    // The numbers and their reasoning share the column; the reader moves the line between them.
    auto *reasoningBox = new QWidget(this);
    auto *reasoningLayout = new QVBoxLayout(reasoningBox);
    reasoningLayout->setContentsMargins(0, 0, 0, 0);
    reasoningLayout->addWidget(new QLabel(tr("Reasoning"), reasoningBox));
    reasoningLayout->addWidget(m_reasoning, 1);
    m_resultSplit = new QSplitter(Qt::Vertical, this);
    m_resultSplit->setObjectName(QStringLiteral("sizingResultSplit"));
    m_resultSplit->setChildrenCollapsible(false);
    m_resultSplit->addWidget(m_table);
    m_resultSplit->addWidget(reasoningBox);
    m_resultSplit->setStretchFactor(0, 3);
    m_resultSplit->setStretchFactor(1, 2);
    auto *right = new QVBoxLayout;
    right->addWidget(m_caveats);
    right->addWidget(m_resultSplit, 1);
    auto *body = new QHBoxLayout;
    body->addLayout(left, 2);
    body->addLayout(right, 3);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(evidenceRow); // what every number below rests on, across the view
    layout->addLayout(body, 1);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_status, 1);
    layout->addLayout(bottom);

    connect(m_rateSlider, &QSlider::valueChanged, m_rate, [this](int v) {
        if (m_rate->bytesPerS() > 0 || int(std::lround(m_rate->recordsPerS() / 1000)) != v)
            m_rate->setText(QStringLiteral("%1k").arg(v));
    });
    connect(m_rate, &RateField::rateChanged, this, [this] {
        if (m_rate->recordsPerS() > 0) {
            const QSignalBlocker block(m_rateSlider);
            m_rateSlider->setValue(int(std::clamp<double>(std::lround(m_rate->recordsPerS() / 1000), 10, 2000)));
        }
        recompute();
    });
    connect(m_brokerModel, &QComboBox::currentIndexChanged, this, &SizingView::recompute);
    connect(m_keyPattern, &QLineEdit::textChanged, this, &SizingView::keyPatternEdited);
    connect(m_tiered, &QCheckBox::toggled, m_localRetention, &QWidget::setEnabled);
    for (QSpinBox *s : {m_recordSize, m_retention, m_replication, m_localRetention})
        connect(s, &QSpinBox::valueChanged, this, &SizingView::recompute);
    for (QDoubleSpinBox *s : {m_compression, m_p99, m_skewTarget})
        connect(s, &QDoubleSpinBox::valueChanged, this, &SizingView::recompute);
    connect(m_headroom, &QSlider::valueChanged, this, &SizingView::recompute);
    for (QCheckBox *c : {m_nodeLoss, m_flex, m_tiered})
        connect(c, &QCheckBox::toggled, this, &SizingView::recompute);
    m_headroomLabel->setText(QStringLiteral("0 %"));
    m_status->setText(tr("Fitting the models to the runs in the store…"));
}

SizingView::~SizingView() = default;

void SizingView::addConsumeRows(QFormLayout *form)
{
    const SizingInputs defaults;
    m_consumerGroups = new QSpinBox(this);
    m_consumerGroups->setObjectName(QStringLiteral("consumerGroupsSpin"));
    m_consumerGroups->setRange(int(SizingInputs::kConsumerGroups.lo), int(SizingInputs::kConsumerGroups.hi));
    m_consumerGroups->setValue(defaults.consumerGroups);
    m_consumerGroups->setSpecialValueText(tr("none"));
    m_consumerGroups->setSuffix(tr(" groups"));
    connect(m_consumerGroups, &QSpinBox::valueChanged, m_consumerGroups,
            [this](int groups) { m_consumerGroups->setSuffix(groups == 1 ? tr(" group") : tr(" groups")); });
    m_consumerGroups->setToolTip(tr("Consumer groups, each reading the whole stream (fan-out); none sizes the "
                                    "produce side alone (the CLI's --consumer-groups)"));
    m_consumeRate = new RateField(QStringLiteral("0"), SizingInputs::kConsumeRate, &SizingInputs::kBytesPerS, this);
    m_consumeRate->setObjectName(QStringLiteral("consumeRateField"));
    m_consumeRate->setToolTip(tr("Records/s each group reads; 0 reads at the target rate (the CLI's --consume-rate)"));
    m_consumeFrom = new QComboBox(this);
    m_consumeFrom->setObjectName(QStringLiteral("consumeFromCombo"));
    m_consumeFrom->addItem(tr("from the tail"), QString::fromLatin1(toString(ConsumeFrom::Tail)));
    m_consumeFrom->addItem(tr("from a backlog"), QString::fromLatin1(toString(ConsumeFrom::Backlog)));
    m_consumeFrom->setToolTip(tr("Where the groups read (the CLI's --consume-from)"));
    // Short: the row sets the form's width, and the sizing table beside it needs the room.
    m_tieredReads = new QCheckBox(tr("Remote-tier reads"), this);
    m_tieredReads->setObjectName(QStringLiteral("tieredReadsCheck"));
    m_tieredReads->setToolTip(tr("Needs tiered offload and a backlog (the CLI's --tiered-reads)"));
    m_consumeMargin = new QSpinBox(this);
    m_consumeMargin->setObjectName(QStringLiteral("consumeMarginSpin"));
    m_consumeMargin->setRange(int(SizingInputs::kConsumeMargin.lo * 100), int(SizingInputs::kConsumeMargin.hi * 100));
    m_consumeMargin->setValue(int(std::lround(defaults.consumeMargin * 100)));
    m_consumeMargin->setSuffix(tr(" % margin"));
    m_consumeMargin->setToolTip(tr("CPU of each broker and shard held back for consumer traffic where no consume "
                                   "ramp measured it (the CLI's --consume-margin)"));
    m_fetchP99 = new QSpinBox(this);
    m_fetchP99->setObjectName(QStringLiteral("fetchP99Spin"));
    m_fetchP99->setRange(0, 600000);
    m_fetchP99->setValue(int(std::lround(defaults.fetchP99Budget * 1000)));
    m_fetchP99->setSuffix(tr(" ms"));
    m_fetchP99->setSpecialValueText(tr("the Korvet page's limit"));
    m_fetchP99->setToolTip(tr("Fetch delivery p99 budget; the Korvet benchmark page's limit is 500 ms, 5 s with tiered reads "
                              "(the CLI's --fetch-p99)"));
    auto *groupsRow = new QHBoxLayout;
    groupsRow->addWidget(m_consumerGroups);
    groupsRow->addWidget(m_consumeFrom);
    groupsRow->addWidget(m_tieredReads);
    groupsRow->addStretch();
    form->addRow(tr("Consumers"), groupsRow);
    form->addRow(tr("Read per group"), m_consumeRate);
    auto *marginRow = new QHBoxLayout;
    marginRow->addWidget(m_consumeMargin);
    marginRow->addWidget(new QLabel(tr("Fetch p99"), this));
    marginRow->addWidget(m_fetchP99);
    marginRow->addStretch();
    form->addRow(QString(), marginRow);
    connect(m_consumeRate, &RateField::rateChanged, this, &SizingView::recompute);
    connect(m_consumeFrom, &QComboBox::currentIndexChanged, this, &SizingView::recompute);
    connect(m_tieredReads, &QCheckBox::toggled, this, &SizingView::recompute);
    for (QSpinBox *spin : {m_consumerGroups, m_consumeMargin, m_fetchP99})
        connect(spin, &QSpinBox::valueChanged, this, &SizingView::recompute);
    connect(m_consumerGroups, &QSpinBox::valueChanged, this, &SizingView::enableConsumeInputs);
    connect(m_consumeFrom, &QComboBox::currentIndexChanged, this, &SizingView::enableConsumeInputs);
    connect(m_tiered, &QCheckBox::toggled, this, &SizingView::enableConsumeInputs);
    enableConsumeInputs();
}

bool SizingView::tieredReadsApply() const
{
    return m_consumerGroups->value() > 0 && m_tiered->isChecked() &&
           m_consumeFrom->currentData().toString() == QLatin1String(toString(ConsumeFrom::Backlog));
}

// The consume fields take part only with a group to read: with none they are disabled (and
// not sent), and remote-tier reads need a backlog and tiered offload, as the CLI requires.
void SizingView::enableConsumeInputs()
{
    for (QWidget *w : std::initializer_list<QWidget *>{m_consumeRate, m_consumeFrom, m_consumeMargin, m_fetchP99})
        w->setEnabled(m_consumerGroups->value() > 0);
    m_tieredReads->setEnabled(tieredReadsApply());
    m_tieredReads->setToolTip(m_tieredReads->isEnabled()
                                  ? tr("The backlog is read from the remote tier (the CLI's --tiered-reads)")
                                  : tr("Needs consumer groups reading from a backlog, and tiered offload (the CLI's "
                                       "--tiered-reads)"));
}

void SizingView::setConsumeInputs(const SizingInputs &in)
{
    const QSignalBlocker blocks[] = {QSignalBlocker(m_consumerGroups), QSignalBlocker(m_consumeRate),
                                     QSignalBlocker(m_consumeFrom), QSignalBlocker(m_tieredReads),
                                     QSignalBlocker(m_consumeMargin), QSignalBlocker(m_fetchP99)};
    m_consumerGroups->setValue(in.consumerGroups);
    m_consumeRate->setText(in.consumeRate > 0 ? QString::fromStdString(rateInputText(in.consumeRate, 0))
                                              : QStringLiteral("0"));
    m_consumeFrom->setCurrentIndex(std::max(0, m_consumeFrom->findData(QString::fromLatin1(toString(in.consumeFrom)))));
    m_tieredReads->setChecked(in.tieredReads);
    m_consumeMargin->setValue(int(std::lround(in.consumeMargin * 100)));
    m_fetchP99->setValue(int(std::lround(in.fetchP99Budget * 1000)));
    enableConsumeInputs();
}

void SizingView::fillConsumeInputs(SizingInputs &in) const
{
    in.consumerGroups = m_consumerGroups->value();
    if (in.consumerGroups == 0)
        return; // the disabled fields are not part of the sizing (SizingInputs' defaults stand)
    // As the CLI reads --consume-rate: bytes/s over the record size.
    in.consumeRate = m_consumeRate->bytesPerS() > 0 ? m_consumeRate->bytesPerS() / in.recordBytes
                                                    : m_consumeRate->recordsPerS();
    in.consumeFrom = consumeFromFromString(m_consumeFrom->currentData().toString().toStdString())
                         .value_or(ConsumeFrom::Tail);
    in.tieredReads = tieredReadsApply() && m_tieredReads->isChecked();
    in.consumeMargin = m_consumeMargin->value() / 100.0;
    in.fetchP99Budget = m_fetchP99->value() / 1000.0;
}


void SizingView::reload()
{
    const std::string path = storePath().toStdString();
    m_loader->start(
        [path, selection = m_evidence] {
            // Only the runs the models learn from, read in one pass: a store of years of
            // nightly history holds far more runs than steps to fit.
            return std::make_shared<const FittedEvidence>(fitEvidence(Store(path), selection));
        },
        [this](const std::shared_ptr<const FittedEvidence> &fitted) {
            m_lastEvidence = fitted->evidence;
            m_sizer = std::make_unique<Sizer>(fitted->models);
            showEvidence();
            emit modelsLoaded();
            recompute();
        },
        [this](const QString &error) { emit loadFailed(error); });
}

void SizingView::setEvidenceSelection(const EvidenceSelection &selection)
{
    m_evidence = selection;
    {
        const QSignalBlocker block(m_samples);
        m_samples->setCurrentIndex(m_samples->findData(int(selection.samples)));
    }
    m_status->setText(tr("Fitting the models to %1…").arg(QString::fromStdString(selection.describe())));
    reload();
}

void SizingView::chooseRuns()
{
    auto *dialog = new EvidenceDialog(storePath(), m_evidence, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { setEvidenceSelection(dialog->selection()); });
    dialog->open();
}

void SizingView::showEvidence()
{
    const Evidence &e = m_lastEvidence;
    QString text = tr("Sizing from %1 (%2)")
                       .arg(e.runs.size() == 1 ? tr("1 run") : tr("%1 runs").arg(e.runs.size()),
                            QString::fromStdString(m_evidence.describe()));
    if (!e.note.empty())
        text += QStringLiteral(" · ") + QString::fromStdString(e.note);
    m_evidenceLabel->setText(text);
}

void SizingView::setInputs(const SizingInputs &in)
{
    {
        const QSignalBlocker blocks[] = {QSignalBlocker(m_rate), QSignalBlocker(m_rateSlider),
                                         QSignalBlocker(m_recordSize), QSignalBlocker(m_compression),
                                         QSignalBlocker(m_retention), QSignalBlocker(m_replication),
                                         QSignalBlocker(m_p99), QSignalBlocker(m_headroom),
                                         QSignalBlocker(m_nodeLoss), QSignalBlocker(m_flex),
                                         QSignalBlocker(m_tiered), QSignalBlocker(m_localRetention),
                                         QSignalBlocker(m_brokerModel), QSignalBlocker(m_keyPattern),
                                         QSignalBlocker(m_skewTarget)};
        m_rate->setText(QString::fromStdString(rateInputText(in.rate, in.bytesPerS)));
        if (in.rate > 0)
            m_rateSlider->setValue(int(std::clamp<double>(std::lround(in.rate / 1000), 10, 2000)));
        m_recordSize->setValue(int(std::lround(in.recordBytes)));
        m_compression->setValue(in.compressionRatio);
        m_retention->setValue(int(std::lround(in.retentionS)));
        m_replication->setValue(in.replication);
        m_p99->setValue(in.p99Budget * 1000);
        m_headroom->setValue(int(std::lround(in.headroom * 100)));
        m_nodeLoss->setChecked(in.tolerateNodeLoss);
        m_flex->setChecked(in.flex);
        m_tiered->setChecked(in.tiered);
        m_localRetention->setEnabled(in.tiered);
        m_localRetention->setValue(int(std::lround(in.localRetentionS)));
        const int model = m_brokerModel->findData(QString::fromLatin1(toString(in.brokerModel)));
        m_brokerModel->setCurrentIndex(std::max(0, model));
        m_keyPattern->setText(QString::fromStdString(in.keyPattern));
        m_skewTarget->setValue(in.skewTarget >= 1 ? in.skewTarget : m_skewTarget->minimum());
        m_goodKeyPattern = in.keyPattern;
        m_keyPatternError->hide();
        setConsumeInputs(in);
    }
    recompute();
}

SizingInputs SizingView::inputs() const
{
    SizingInputs in;
    in.rate = m_rate->recordsPerS();
    in.bytesPerS = m_rate->bytesPerS();
    in.recordBytes = m_recordSize->value();
    in.compressionRatio = m_compression->value();
    in.retentionS = m_retention->value();
    in.replication = m_replication->value();
    in.p99Budget = m_p99->value() / 1000;
    in.headroom = m_headroom->value() / 100.0;
    in.tolerateNodeLoss = m_nodeLoss->isChecked();
    in.flex = m_flex->isChecked();
    in.tiered = m_tiered->isChecked();
    in.localRetentionS = m_localRetention->value();
    in.brokerModel = brokerModelFromString(m_brokerModel->currentData().toString().toStdString())
                         .value_or(BrokerModel::Auto);
    in.keyPattern = m_goodKeyPattern;
    in.skewTarget = m_skewTarget->value() <= m_skewTarget->minimum() ? 0 : m_skewTarget->value();
    fillConsumeInputs(in);
    return in;
}

QString SizingView::resultText(const QString &key) const
{
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (m_table->item(row, 0)->data(Qt::UserRole).toString() == key)
            return m_table->item(row, 1)->text();
    return {};
}

QString SizingView::resultEvidence(const QString &key) const
{
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (m_table->item(row, 0)->data(Qt::UserRole).toString() == key)
            return m_table->item(row, 2)->text();
    return {};
}

int SizingView::utilizationPercent(const QString &component) const
{
    for (auto *bar : m_barsBox->findChildren<QProgressBar *>())
        if (bar->property("component").toString() == component && !bar->isHidden())
            return bar->value();
    return -1;
}

void SizingView::keyPatternEdited()
{
    // A pattern without {partition} puts every partition on one key: refused where it is
    // typed, the sizing staying on the last pattern that was usable.
    const std::string pattern = m_keyPattern->text().toStdString();
    if (const auto problem = keyPatternProblem(pattern)) {
        m_keyPatternError->setText(tr("The stream key %1; sizing with '%2'")
                                       .arg(QString::fromStdString(*problem),
                                            QString::fromStdString(m_goodKeyPattern)));
        m_keyPatternError->show();
        return;
    }
    m_keyPatternError->hide();
    m_goodKeyPattern = pattern;
    recompute();
}

void SizingView::recompute()
{
    m_headroomLabel->setText(QStringLiteral("%1 %").arg(m_headroom->value()));
    if (!m_sizer)
        return;
    QElapsedTimer timer;
    timer.start();
    m_result = m_sizer->size(inputs());
    m_lastMs = double(timer.nsecsElapsed()) / 1e6;

    m_table->setRowCount(0);
    showCaveats();
    showBrokerModels();
    showReasoning();
    showBars();
    if (!m_result.ok) {
        QString error = QString::fromStdString(m_result.error);
        if (m_lastEvidence.samplesLeftOut > 0)
            error += tr(" — %1 sample runs were left out as asked; Samples: auto lets them answer for "
                        "what your runs do not measure")
                         .arg(m_lastEvidence.samplesLeftOut);
        m_status->setText(error);
        emit recomputed();
        return;
    }
    for (const SizingLine &l : m_result.lines) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        auto *label = new QTableWidgetItem(QString::fromStdString(l.label));
        label->setData(Qt::UserRole, QString::fromStdString(l.key));
        label->setToolTip(QString::fromStdString(l.label));
        // A number something qualifies carries the mark and the words at it.
        auto *value = new QTableWidgetItem(QString::fromStdString(l.display) +
                                           (l.caveat.empty() ? QString() : QStringLiteral(" ⚠")));
        QString tip = QString::fromStdString(l.reasoning);
        if (!l.caveat.empty()) {
            tip = QStringLiteral("⚠ ") + QString::fromStdString(l.caveat) + QStringLiteral("\n\n") + tip;
            value->setForeground(QColor(0x8a, 0x45, 0x00));
        }
        if (!l.runKeys.empty())
            tip += (l.runKeys.size() == 1 ? tr("\n\nFrom 1 run:") : tr("\n\nFrom %1 runs:").arg(l.runKeys.size()));
        for (const std::string &k : l.runKeys)
            tip += QLatin1Char('\n') + QString::fromStdString(k);
        value->setToolTip(tip);
        if (l.key == "bottleneck" || l.key == "brokers" || l.key == "shards") {
            QFont bold = value->font();
            bold.setBold(true);
            value->setFont(bold);
        }
        m_table->setItem(row, 0, label);
        m_table->setItem(row, 1, value);
        auto *evidence = new QTableWidgetItem(*plimsoll::label(l.evidence) ? QString::fromUtf8(plimsoll::label(l.evidence))
                                                                           : QStringLiteral("—"));
        evidence->setData(Qt::UserRole, QString::fromLatin1(toString(l.evidence)));
        evidence->setToolTip(tip);
        m_table->setItem(row, 2, evidence);
    }

    m_status->setText(tr("Bottleneck: %1 · recomputed in %2 ms from the fitted models")
                          .arg(QString::fromStdString(m_result.bottleneck))
                          .arg(m_lastMs, 0, 'f', 3));
    emit recomputed();
}

} // namespace plimsoll
