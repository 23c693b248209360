package manifest

import (
	"bytes"
	"io"
	"io/fs"
	"path"
	"slices"
	"time"
)

// memFS is a read-only file system of files held in memory by
// slash-separated path, as LoadFiles takes them; its directories are the
// ones the paths imply. It is what fstest.MapFS was here, without a
// testing package in the program.
type memFS struct {
	files map[string][]byte
	dirs  map[string][]string // directory ("." for the root) → its entries' names, sorted
}

// newMemFS returns the file system of files, whose paths are valid
// (fs.ValidPath) and not ".".
func newMemFS(files map[string][]byte) *memFS {
	m := &memFS{files: files, dirs: map[string][]string{".": nil}}
	for p := range files {
		for child := p; child != "."; child = path.Dir(child) {
			dir, name := path.Dir(child), path.Base(child)
			if !slices.Contains(m.dirs[dir], name) {
				m.dirs[dir] = append(m.dirs[dir], name)
			}
		}
	}
	for _, names := range m.dirs {
		slices.Sort(names)
	}
	return m
}

func (m *memFS) info(name string) (memInfo, bool) {
	if data, ok := m.files[name]; ok {
		return memInfo{name: path.Base(name), size: int64(len(data)), mode: 0o444}, true
	}
	if _, ok := m.dirs[name]; ok {
		return memInfo{name: path.Base(name), mode: fs.ModeDir | 0o555}, true
	}
	return memInfo{}, false
}

// Open opens a file or a directory.
func (m *memFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	info, ok := m.info(name)
	switch {
	case !ok:
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	case info.IsDir():
		entries, _ := m.ReadDir(name)
		return &memDir{info: info, path: name, entries: entries}, nil
	}
	return &memFile{info: info, Reader: bytes.NewReader(m.files[name])}, nil
}

// ReadDir returns the entries of a directory, sorted by name.
func (m *memFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	names, ok := m.dirs[name]
	if !ok {
		if _, isFile := m.files[name]; isFile {
			return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
		}
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	entries := make([]fs.DirEntry, len(names))
	for i, n := range names {
		info, _ := m.info(path.Join(name, n))
		entries[i] = fs.FileInfoToDirEntry(info)
	}
	return entries, nil
}

// Stat describes a file or a directory.
func (m *memFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	info, ok := m.info(name)
	if !ok {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return info, nil
}

// memInfo describes a file or directory of a memFS.
type memInfo struct {
	name string
	size int64
	mode fs.FileMode
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return i.mode }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return i.mode.IsDir() }
func (i memInfo) Sys() any           { return nil }

// memFile is an open file of a memFS.
type memFile struct {
	info memInfo
	*bytes.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }

// memDir is an open directory of a memFS.
type memDir struct {
	info    memInfo
	path    string
	entries []fs.DirEntry
	next    int
}

func (d *memDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *memDir) Close() error               { return nil }
func (d *memDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.path, Err: fs.ErrInvalid}
}

// ReadDir returns the next n entries (all that are left when n <= 0), as
// fs.ReadDirFile says.
func (d *memDir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.next:]
	if n <= 0 {
		d.next = len(d.entries)
		return slices.Clone(rest), nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(rest))
	d.next += n
	return slices.Clone(rest[:n]), nil
}
