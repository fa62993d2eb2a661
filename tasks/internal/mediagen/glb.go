package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
)

// writeGLB writes a unit cube as a minimal glTF 2.0 binary: one mesh with
// positions and indices and a red material.
func writeGLB(dir string) error {
	pos := []float32{
		-.5, -.5, -.5, .5, -.5, -.5, .5, .5, -.5, -.5, .5, -.5,
		-.5, -.5, .5, .5, -.5, .5, .5, .5, .5, -.5, .5, .5,
	}
	idx := []uint16{0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
		2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3}
	var bin bytes.Buffer
	binary.Write(&bin, binary.LittleEndian, pos)
	binary.Write(&bin, binary.LittleEndian, idx)
	for bin.Len()%4 != 0 {
		bin.WriteByte(0)
	}
	doc := map[string]any{
		"asset":       map[string]any{"version": "2.0", "generator": "arbiter mediagen"},
		"scene":       0,
		"scenes":      []any{map[string]any{"nodes": []int{0}}},
		"nodes":       []any{map[string]any{"mesh": 0}},
		"meshes":      []any{map[string]any{"primitives": []any{map[string]any{"attributes": map[string]int{"POSITION": 0}, "indices": 1, "material": 0}}}},
		"materials":   []any{map[string]any{"pbrMetallicRoughness": map[string]any{"baseColorFactor": []float64{0.8, 0.1, 0.15, 1}}}},
		"buffers":     []any{map[string]any{"byteLength": bin.Len()}},
		"bufferViews": []any{map[string]any{"buffer": 0, "byteOffset": 0, "byteLength": 96, "target": 34962}, map[string]any{"buffer": 0, "byteOffset": 96, "byteLength": 72, "target": 34963}},
		"accessors": []any{
			map[string]any{"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3", "min": []float64{-.5, -.5, -.5}, "max": []float64{.5, .5, .5}},
			map[string]any{"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"},
		},
	}
	js, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	var out bytes.Buffer
	le := binary.LittleEndian
	binary.Write(&out, le, []uint32{0x46546C67, 2, uint32(12 + 8 + len(js) + 8 + bin.Len())})
	binary.Write(&out, le, []uint32{uint32(len(js)), 0x4E4F534A})
	out.Write(js)
	binary.Write(&out, le, []uint32{uint32(bin.Len()), 0x004E4942})
	out.Write(bin.Bytes())
	return os.WriteFile(filepath.Join(dir, "cube.glb"), out.Bytes(), 0o644)
}
