// Command bare is the load-test ceiling: a net/http server answering GET /ok with a constant
// body, so the benchmark can show how close sellertrends comes to the machine's limit.
package main

import (
	"net/http"
	"os"
)

func main() {
	http.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ok":true}`))
	})
	http.ListenAndServe("127.0.0.1:"+os.Args[1], nil)
}
