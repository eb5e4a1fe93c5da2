//go:build !linux

package asinindex

import "os"

// mapFile reads the file at path whole where memory mapping is not available.
func mapFile(path string) ([]byte, func() error, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
