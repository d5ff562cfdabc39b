// validate-manifests: decodes Kubernetes manifests (JSON, one object a file) into the API's own
// Go types with unknown and duplicate fields refused, field names matched case-sensitively, as
// the API server's strict field validation does, then applies some of the checks the server
// would make on a Job. No API server can run where Plimsoll is tested, so this is what stands in
// for `kubectl apply --dry-run=server`.
//
// Usage: validate-manifests FILE...
// Prints one line a file ("FILE: ok: ..." or "FILE: refused: ..." and one line a problem);
// exits 0 when every file is accepted, 1 when any is refused, 2 on a usage error.
package main

import (
	"fmt"
	"os"

	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	kjson "sigs.k8s.io/json"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: validate-manifests FILE...")
		os.Exit(2)
	}
	refused := false
	for _, path := range os.Args[1:] {
		summary, problems := validateFile(path)
		if len(problems) == 0 {
			fmt.Printf("%s: ok: %s\n", path, summary)
			continue
		}
		refused = true
		fmt.Printf("%s: refused:\n", path)
		for _, problem := range problems {
			fmt.Printf("  %s\n", problem)
		}
	}
	if refused {
		os.Exit(1)
	}
}

type typeMeta struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

func validateFile(path string) (string, []string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", []string{err.Error()}
	}
	var meta typeMeta
	if err := kjson.UnmarshalCaseSensitivePreserveInts(data, &meta); err != nil {
		return "", []string{"not a JSON object: " + err.Error()}
	}
	switch {
	case meta.APIVersion == "batch/v1" && meta.Kind == "Job":
		var job batchv1.Job
		if problems := decodeStrict(data, &job); len(problems) > 0 {
			return "", problems
		}
		if errs := validateJob(&job); len(errs) > 0 {
			return "", errorStrings(errs)
		}
		return fmt.Sprintf("batch/v1 Job %s, %d indexed completions, parallelism %d",
			job.Name, *job.Spec.Completions, *job.Spec.Parallelism), nil
	default:
		return "", []string{fmt.Sprintf("apiVersion %q kind %q: only batch/v1 Job is expected here",
			meta.APIVersion, meta.Kind)}
	}
}

// Unknown fields ("spec.completionMod"), duplicate fields and fields spelt in another case are
// each a problem: the API server's strict field validation refuses them, and a lenient decoder
// would drop them without a word.
func decodeStrict(data []byte, into any) []string {
	strictErrors, err := kjson.UnmarshalStrict(data, into)
	if err != nil {
		return []string{"does not decode: " + err.Error()}
	}
	return errorStrings(strictErrors)
}

func errorStrings[E error](errs []E) []string {
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func validateJob(job *batchv1.Job) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, validateMeta(job.Name, job.Namespace, job.Labels, job.Annotations, field.NewPath("metadata"))...)

	spec := &job.Spec
	specPath := field.NewPath("spec")
	if spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion {
		errs = append(errs, field.Invalid(specPath.Child("completionMode"), strPtr(spec.CompletionMode), "a fleet runs as an Indexed Job"))
	}
	// As the API server: an Indexed Job needs completions, each pod its index below it.
	switch {
	case spec.Completions == nil:
		errs = append(errs, field.Required(specPath.Child("completions"), "when completionMode is Indexed"))
	case *spec.Completions < 1 || *spec.Completions > 100000:
		errs = append(errs, field.Invalid(specPath.Child("completions"), *spec.Completions, "must be from 1 to 100000 for an Indexed Job"))
	}
	switch {
	case spec.Parallelism == nil:
		errs = append(errs, field.Required(specPath.Child("parallelism"), "every agent runs at once"))
	case spec.Completions != nil && *spec.Parallelism != *spec.Completions:
		errs = append(errs, field.Invalid(specPath.Child("parallelism"), *spec.Parallelism,
			fmt.Sprintf("must equal completions (%d): every agent runs at once", *spec.Completions)))
	}
	if spec.BackoffLimit != nil && *spec.BackoffLimit < 0 {
		errs = append(errs, field.Invalid(specPath.Child("backoffLimit"), *spec.BackoffLimit, "must be 0 or more"))
	}
	if spec.TTLSecondsAfterFinished != nil && *spec.TTLSecondsAfterFinished < 0 {
		errs = append(errs, field.Invalid(specPath.Child("ttlSecondsAfterFinished"), *spec.TTLSecondsAfterFinished, "must be 0 or more"))
	}
	// The server generates the selector unless manualSelector says otherwise.
	if spec.Selector != nil && (spec.ManualSelector == nil || !*spec.ManualSelector) {
		errs = append(errs, field.Invalid(specPath.Child("selector"), "", "must not be set unless manualSelector is true"))
	}

	template := specPath.Child("template")
	errs = append(errs, validateMeta("", "", spec.Template.Labels, spec.Template.Annotations, template.Child("metadata"))...)
	errs = append(errs, validatePodSpec(&spec.Template.Spec, template.Child("spec"))...)
	return errs
}

func strPtr[T ~string](p *T) string {
	if p == nil {
		return "<unset>"
	}
	return string(*p)
}
