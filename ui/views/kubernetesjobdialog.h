#pragma once
// The Bench view's "Kubernetes Job…": the run in the form as an Indexed Job of agents, written
// for the user to apply (runner/kubernetesfleet.h, as `plimsoll bench --launcher kubernetes
// --dry-run --out DIR` writes it). The image, namespace, Secret, resources, node selectors and
// margin are asked here; the file is written off the UI thread, and the commands that apply
// it, gather the pods' logs and delete the Job are shown to copy.

#include "runner/benchconfig.h"
#include "runner/kubernetesfleet.h"

#include <QDialog>
#include <QFutureWatcher>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace plimsoll {

class KubernetesJobDialog : public QDialog
{
    Q_OBJECT
public:
    // `config`: the form's run; `last`: what the dialog was given the time before.
    KubernetesJobDialog(const RunConfig &config, const KubernetesFleetRequest &last, QWidget *parent = nullptr);

    // Opens the dialog for the form's run (`config`), window-modal, filled with *remember, which
    // takes what the user writes. False, with *problem set, for a run no fleet can be (the
    // CLI's words: the embedded target, a ramp, …).
    static bool openFor(RunConfig config, KubernetesFleetRequest *remember, QWidget *parent, QString *problem);

    KubernetesFleetRequest request() const;
    QString report() const;

signals:
    // The manifest was written (or refused: written.error).
    void written(const QString &file, const QString &error);

private:
    void write();

    RunConfig m_config;
    QLineEdit *m_image, *m_namespace, *m_secret, *m_cpu, *m_memory, *m_nodeSelectors, *m_margin, *m_dir;
    QPushButton *m_write;
    QLabel *m_status;
    QPlainTextEdit *m_report;
    QFutureWatcher<KubernetesFleetWritten> m_writer;
};

} // namespace plimsoll
