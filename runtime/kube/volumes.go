package kube

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/smile-loop/smile/runtime"
)

// maxConfigMapBytes is what a ConfigMap may hold (the API's limit is 1 MiB
// for the whole object; names and metadata take some of it).
const maxConfigMapBytes = 1000 * 1000

// volumes are a Pod's volumes, its container's mounts and the ConfigMaps
// to make first.
type volumes struct {
	volumes    []corev1.Volume
	mounts     []corev1.VolumeMount
	configMaps []*corev1.ConfigMap
}

// volumesFor maps a container's mounts to volumes: a read-only mount to a
// ConfigMap of its regular files (those under one of spec.EmptyDirs left
// out: they are hidden), a writable one to an emptyDir, and each EmptyDir
// outside them to a read-only memory emptyDir.
func volumesFor(pod string, spec runtime.ContainerSpec) (volumes, error) {
	var out volumes
	var readOnly []string
	for i, m := range spec.Mounts {
		vol := fmt.Sprintf("m%d", i)
		if !m.ReadOnly {
			out.volumes = append(out.volumes, corev1.Volume{Name: vol, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
			out.mounts = append(out.mounts, corev1.VolumeMount{Name: vol, MountPath: m.Target})
			continue
		}
		cm, sub, err := configMapFor(pod, vol, m, spec.EmptyDirs)
		if err != nil {
			return volumes{}, err
		}
		out.configMaps = append(out.configMaps, cm)
		src := &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: cm.Name}, DefaultMode: ptr(int32(0o644))}
		for key := range cm.Data {
			src.Items = append(src.Items, itemFor(key, cm))
		}
		for key := range cm.BinaryData {
			src.Items = append(src.Items, itemFor(key, cm))
		}
		out.volumes = append(out.volumes, corev1.Volume{Name: vol, VolumeSource: corev1.VolumeSource{ConfigMap: src}})
		out.mounts = append(out.mounts, corev1.VolumeMount{Name: vol, MountPath: m.Target, SubPath: sub, ReadOnly: true})
		if sub == "" {
			readOnly = append(readOnly, m.Target)
		}
	}
	for i, dir := range spec.EmptyDirs {
		if under(dir, readOnly) {
			continue // left out of the ConfigMap, and a mount point there cannot be made
		}
		vol := fmt.Sprintf("e%d", i)
		out.volumes = append(out.volumes, corev1.Volume{Name: vol, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{Medium: corev1.StorageMediumMemory}}})
		out.mounts = append(out.mounts, corev1.VolumeMount{Name: vol, MountPath: dir, ReadOnly: true})
	}
	return out, nil
}

// itemFor is the volume item of a ConfigMap key: its path (kept in an
// annotation, keys cannot hold '/') and its mode.
func itemFor(key string, cm *corev1.ConfigMap) corev1.KeyToPath {
	mode := int32(0o644)
	if cm.Annotations[annotationExec+key] == "true" {
		mode = 0o755
	}
	return corev1.KeyToPath{Key: key, Path: cm.Annotations[annotationPath+key], Mode: &mode}
}

const (
	annotationPath = "path.smile.dev/"
	annotationExec = "exec.smile.dev/"
)

// configMapFor reads a host folder's regular files (or one file) into a
// ConfigMap. For a file, sub is the key to mount with subPath. Links are
// not followed, and nothing under hidden (container paths) is read.
func configMapFor(pod, vol string, m runtime.Mount, hidden []string) (cm *corev1.ConfigMap, sub string, err error) {
	cm = &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name:        pod + "-" + vol,
			Labels:      map[string]string{runtime.LabelOwner: runtime.OwnerValue, labelPod: podLabel(pod)},
			Annotations: map[string]string{},
		},
		Data:       map[string]string{},
		BinaryData: map[string][]byte{},
	}
	total := 0
	n := 0
	add := func(rel string, info fs.FileInfo, host string) error {
		data, err := os.ReadFile(host)
		if err != nil {
			return err
		}
		if total += len(data); total > maxConfigMapBytes {
			return fmt.Errorf("read-only mount %s: more than %d bytes (a ConfigMap's limit): put it in the image", m.Source, maxConfigMapBytes)
		}
		key := fmt.Sprintf("f%d", n)
		n++
		cm.Annotations[annotationPath+key] = rel
		if info.Mode()&0o111 != 0 {
			cm.Annotations[annotationExec+key] = "true"
		}
		if utf8.Valid(data) {
			cm.Data[key] = string(data)
		} else {
			cm.BinaryData[key] = data
		}
		return nil
	}
	info, err := os.Lstat(m.Source)
	if err != nil {
		return nil, "", fmt.Errorf("read-only mount: %w", err)
	}
	if info.Mode().IsRegular() {
		if err := add(filepath.Base(m.Source), info, m.Source); err != nil {
			return nil, "", err
		}
		return cm, filepath.Base(m.Source), nil
	}
	err = filepath.WalkDir(m.Source, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(m.Source, p)
		if rel != "." && under(path.Join(m.Target, filepath.ToSlash(rel)), hidden) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return add(filepath.ToSlash(rel), info, p)
	})
	if err != nil {
		return nil, "", fmt.Errorf("read-only mount %s: %w", m.Source, err)
	}
	return cm, "", nil
}

// under says whether p is one of dirs or inside one.
func under(p string, dirs []string) bool {
	for _, d := range dirs {
		d = strings.TrimSuffix(d, "/")
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// podLabel is a label value naming a Pod (label values are 63 characters
// at most, Pod names up to 253).
func podLabel(pod string) string {
	if len(pod) <= 63 {
		return pod
	}
	sum := sha256.Sum256([]byte(pod))
	return hex.EncodeToString(sum[:16])
}
