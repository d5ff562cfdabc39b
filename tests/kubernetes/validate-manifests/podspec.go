package main

// Checks the API server makes on object metadata and on a Job's pod template, in its own
// words where its validation packages are importable (k8s.io/apimachinery); the pod rules that
// live in the server itself (k8s.io/kubernetes) are restated here, only the ones a Plimsoll
// manifest touches.

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// name is "" for a pod template, which has none of its own.
func validateMeta(name, namespace string, labels, annotations map[string]string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if p.String() == "metadata" {
		// A Job's name becomes the batch.kubernetes.io/job-name label of its pods, so it must be
		// a label value as well as a DNS subdomain: a DNS-1123 label.
		if name == "" {
			errs = append(errs, field.Required(p.Child("name"), ""))
		}
		for _, msg := range validation.IsDNS1123Label(name) {
			errs = append(errs, field.Invalid(p.Child("name"), name, msg))
		}
	}
	if namespace != "" {
		for _, msg := range validation.IsDNS1123Label(namespace) {
			errs = append(errs, field.Invalid(p.Child("namespace"), namespace, msg))
		}
	}
	errs = append(errs, metav1validation.ValidateLabels(labels, p.Child("labels"))...)
	errs = append(errs, apivalidation.ValidateAnnotations(annotations, p.Child("annotations"))...)
	return errs
}

func validatePodSpec(spec *corev1.PodSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	// A Job's pods must not be restarted in place: Never or OnFailure.
	if spec.RestartPolicy != corev1.RestartPolicyNever && spec.RestartPolicy != corev1.RestartPolicyOnFailure {
		errs = append(errs, field.NotSupported(p.Child("restartPolicy"), spec.RestartPolicy,
			[]string{string(corev1.RestartPolicyNever), string(corev1.RestartPolicyOnFailure)}))
	}
	if spec.ServiceAccountName != "" {
		for _, msg := range validation.IsDNS1123Subdomain(spec.ServiceAccountName) {
			errs = append(errs, field.Invalid(p.Child("serviceAccountName"), spec.ServiceAccountName, msg))
		}
	}
	errs = append(errs, metav1validation.ValidateLabels(spec.NodeSelector, p.Child("nodeSelector"))...)
	if sc := spec.SecurityContext; sc != nil {
		for _, id := range []*int64{sc.RunAsUser, sc.RunAsGroup, sc.FSGroup} {
			if id != nil {
				for _, msg := range validation.IsValidUserID(*id) {
					errs = append(errs, field.Invalid(p.Child("securityContext"), *id, msg))
				}
			}
		}
	}

	volumes, volumeErrs := validateVolumes(spec.Volumes, p.Child("volumes"))
	errs = append(errs, volumeErrs...)

	if len(spec.Containers) == 0 {
		errs = append(errs, field.Required(p.Child("containers"), ""))
	}
	names := sets.New[string]()
	for i := range spec.Containers {
		c := &spec.Containers[i]
		cp := p.Child("containers").Index(i)
		for _, msg := range validation.IsDNS1123Label(c.Name) {
			errs = append(errs, field.Invalid(cp.Child("name"), c.Name, msg))
		}
		if names.Has(c.Name) {
			errs = append(errs, field.Duplicate(cp.Child("name"), c.Name))
		}
		names.Insert(c.Name)
		if c.Image == "" {
			errs = append(errs, field.Required(cp.Child("image"), ""))
		} else if strings.TrimSpace(c.Image) != c.Image {
			errs = append(errs, field.Invalid(cp.Child("image"), c.Image, "must not have leading or trailing whitespace"))
		}
		errs = append(errs, validateEnvAndArgs(c, cp)...)
		errs = append(errs, validateResources(&c.Resources, cp.Child("resources"))...)
		for j, m := range c.VolumeMounts {
			mp := cp.Child("volumeMounts").Index(j)
			if !volumes.Has(m.Name) {
				errs = append(errs, field.NotFound(mp.Child("name"), m.Name))
			}
			if !path.IsAbs(m.MountPath) {
				errs = append(errs, field.Invalid(mp.Child("mountPath"), m.MountPath, "must be an absolute path"))
			}
		}
	}
	return errs
}

func validateVolumes(volumes []corev1.Volume, p *field.Path) (sets.Set[string], field.ErrorList) {
	var errs field.ErrorList
	names := sets.New[string]()
	for i, v := range volumes {
		vp := p.Index(i)
		for _, msg := range validation.IsDNS1123Label(v.Name) {
			errs = append(errs, field.Invalid(vp.Child("name"), v.Name, msg))
		}
		if names.Has(v.Name) {
			errs = append(errs, field.Duplicate(vp.Child("name"), v.Name))
		}
		names.Insert(v.Name)
		s := v.Secret
		if s == nil {
			continue
		}
		sp := vp.Child("secret")
		for _, msg := range validation.IsDNS1123Subdomain(s.SecretName) {
			errs = append(errs, field.Invalid(sp.Child("secretName"), s.SecretName, msg))
		}
		if s.DefaultMode != nil && (*s.DefaultMode < 0 || *s.DefaultMode > 0o777) {
			errs = append(errs, field.Invalid(sp.Child("defaultMode"), *s.DefaultMode, "must be a file mode from 0 to 0777 (octal)"))
		}
		for j, item := range s.Items {
			ip := sp.Child("items").Index(j)
			for _, msg := range validation.IsConfigMapKey(item.Key) {
				errs = append(errs, field.Invalid(ip.Child("key"), item.Key, msg))
			}
			if item.Path == "" || path.IsAbs(item.Path) || strings.HasPrefix(path.Clean(item.Path), "..") {
				errs = append(errs, field.Invalid(ip.Child("path"), item.Path, "must be a relative path inside the volume"))
			}
		}
	}
	return names, errs
}

// $(NAME) in a container's command or args is expanded by the kubelet from the container's env;
// a name the env lacks is passed on literally, which the API server lets through but which would
// hand an agent the text "$(JOB_COMPLETION_INDEX)" instead of its index, so it is refused here.
var envReference = regexp.MustCompile(`\$\(([^)]*)\)`)

var downwardFieldPaths = regexp.MustCompile(`^(metadata\.(name|namespace|uid)|metadata\.(labels|annotations)\['[^']+'\]|spec\.(nodeName|serviceAccountName)|status\.(hostIP|hostIPs|podIP|podIPs))$`)

func validateEnvAndArgs(c *corev1.Container, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	defined := sets.New[string]()
	for i, e := range c.Env {
		ep := p.Child("env").Index(i)
		for _, msg := range validation.IsEnvVarName(e.Name) {
			errs = append(errs, field.Invalid(ep.Child("name"), e.Name, msg))
		}
		defined.Insert(e.Name)
		if e.ValueFrom != nil && e.ValueFrom.FieldRef != nil {
			ref := e.ValueFrom.FieldRef
			if !downwardFieldPaths.MatchString(ref.FieldPath) {
				errs = append(errs, field.Invalid(ep.Child("valueFrom", "fieldRef", "fieldPath"), ref.FieldPath, "not a field the downward API exposes"))
			}
		}
	}
	for _, list := range []struct {
		name  string
		items []string
	}{{"command", c.Command}, {"args", c.Args}} {
		for i, arg := range list.items {
			for _, name := range expansionReferences(arg) {
				if !defined.Has(name) {
					errs = append(errs, field.Invalid(p.Child(list.name).Index(i), arg,
						fmt.Sprintf("$(%s) names no variable of the container's env: it would be passed on literally", name)))
				}
			}
		}
	}
	return errs
}

// The names an argument refers to, as the kubelet reads it: "$$" is an escaped "$".
func expansionReferences(arg string) []string {
	var names []string
	for i := 0; i < len(arg); i++ {
		if arg[i] != '$' || i+1 >= len(arg) {
			continue
		}
		if arg[i+1] == '$' {
			i++
			continue
		}
		if m := envReference.FindStringSubmatchIndex(arg[i:]); m != nil && m[0] == 0 {
			names = append(names, arg[i+m[2]:i+m[3]])
			i += m[1] - 1
		}
	}
	return names
}

func validateResources(r *corev1.ResourceRequirements, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, list := range []struct {
		name string
		rl   corev1.ResourceList
	}{{"requests", r.Requests}, {"limits", r.Limits}} {
		for name, q := range list.rl {
			if q.Sign() < 0 {
				errs = append(errs, field.Invalid(p.Child(list.name).Key(string(name)), q.String(), "must be 0 or more"))
			}
			if !strings.Contains(string(name), "/") && name != corev1.ResourceCPU && name != corev1.ResourceMemory &&
				name != corev1.ResourceEphemeralStorage {
				errs = append(errs, field.NotSupported(p.Child(list.name).Key(string(name)), name,
					[]string{"cpu", "memory", "ephemeral-storage", "a domain-prefixed extended resource"}))
			}
		}
	}
	// As the API server: a request above its limit is refused.
	for name, request := range r.Requests {
		if limit, ok := r.Limits[name]; ok && request.Cmp(limit) > 0 {
			errs = append(errs, field.Invalid(p.Child("requests").Key(string(name)), request.String(),
				fmt.Sprintf("must be less than or equal to the %s limit of %s", name, limit.String())))
		}
	}
	return errs
}
