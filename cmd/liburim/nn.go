package main

/*
#include "urim_types.h"
*/
import "C"

import (
	"encoding/json"
	"unsafe"

	"github.com/urim-rl/urim/capi"
)

//export urim_nn_import
func urim_nn_import(npz, ckpt *C.char, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, capi.ImportNPZ(C.GoString(npz), C.GoString(ckpt)), err, errlen)
	return
}

//export urim_nn_export
func urim_nn_export(ckpt, npz *C.char, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, capi.ExportNPZ(C.GoString(ckpt), C.GoString(npz)), err, errlen)
	return
}

//export urim_net_load
func urim_net_load(path *C.char, out *C.uintptr_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	n, e := capi.LoadNetwork(C.GoString(path))
	if e == nil {
		newHandle(n, out)
	}
	finish(&code, e, err, errlen)
	return
}

// urim_net_info returns a blob: the network's architecture, rules,
// encoding and sizes as JSON.
//
//export urim_net_info
func urim_net_info(h C.uintptr_t, out *C.uintptr_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(_ *object, w *capi.Network) error {
		n := w.Net()
		b, e := json.Marshal(map[string]any{"arch": n.Arch(), "rules": n.Rules(), "encoding": n.Encoding().String(),
			"input_dim": n.InputDim(), "actions": n.Actions(), "weights": n.NumWeights()})
		if e == nil {
			newBlob(b, out)
		}
		return e
	}), err, errlen)
	return
}

// urim_net_predict writes the logits (batch x actions) and values (batch)
// of batch observation rows.
//
//export urim_net_predict
func urim_net_predict(h C.uintptr_t, obs *C.float, batch C.int64_t, logits, values *C.float, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(_ *object, w *capi.Network) error {
		n := w.Net()
		b := int(batch)
		if b < 0 || (b > 0 && (obs == nil || logits == nil || values == nil)) {
			return capi.Errorf(capi.ErrArg, "urim_net_predict: bad buffers")
		}
		return w.Predict(goBytes((*float32)(unsafe.Pointer(obs)), b*n.InputDim()), b,
			goBytes((*float32)(unsafe.Pointer(logits)), b*n.Actions()), goBytes((*float32)(unsafe.Pointer(values)), b))
	}), err, errlen)
	return
}

// urim_net_set_precision sets the arithmetic of urim_net_predict: "fp32"
// or "int8".
//
//export urim_net_set_precision
func urim_net_set_precision(h C.uintptr_t, name *C.char, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(_ *object, w *capi.Network) error {
		return w.SetPrecision(C.GoString(name))
	}), err, errlen)
	return
}
