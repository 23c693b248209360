package judge

import (
	"fmt"
	"time"

	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/layer"
)

// LLMConfig configures the model that decides what rules cannot: the
// OpenAI-compatible base URL (OpenAI, vLLM, Ollama, llama.cpp server), the
// model's name, an optional API key, and the bounds of its calls (zero
// means the default). See docs/llm.md.
type LLMConfig = llm.Config

// LLMLayerTimeout is each layer's deadline when a model is configured and
// no other was set with [WithLayerTimeout]: a model's answer takes seconds.
// It stays under the HTTP server's default write timeout (60s), so that an
// answer late from the model still reaches the client as undecided checks.
const LLMLayerTimeout = 45 * time.Second

// LLMConfigFromEnv reads the model's configuration through getenv
// (os.Getenv in a program) from JUDGE_LLM_BASE_URL, JUDGE_LLM_MODEL,
// JUDGE_LLM_API_KEY and JUDGE_LLM_CACHE_DIR (a directory that keeps answers
// across runs). It returns ok false, and no error, when neither of the
// first two is set: then there is no model and judge stays deterministic.
// Setting only one of them, a base URL that is not http(s), or a cache
// directory that is a file, is an error.
func LLMConfigFromEnv(getenv func(string) string) (cfg LLMConfig, ok bool, err error) {
	return llm.ConfigFromEnv(getenv)
}

// WithLLM gives the engine a model. Plain-language acceptance criteria are
// then judged by it (see docs/criteria.md) instead of being reported as
// not checked, and so are the claims the facts layer's checker leaves
// undecided or unsupported (see docs/grounding.md); metadata.model names it and metadata.token_usage sums what
// its calls cost. The layer deadline becomes LLMLayerTimeout unless
// WithLayerTimeout set another. It makes no call until a request needs
// one.
func WithLLM(cfg LLMConfig) Option {
	return func(e *Engine) error {
		c, err := llm.New(cfg)
		if err != nil {
			return fmt.Errorf("judge: %w", err)
		}
		e.model = c
		return nil
	}
}

// WithModel gives the engine a model of the program's own, where WithLLM
// gives it judge's client of an OpenAI-compatible API: the engine hands m
// to the layers that declare layer.Layer.UsesModel, and a layer asks it
// what it implements. The criteria layer asks a criteria.Judge, the
// facts layer a facts.Judge; to a layer that finds neither, it is as if
// there were no model. metadata.model names it, and the layer deadline
// becomes LLMLayerTimeout unless WithLayerTimeout set another, as with
// WithLLM. A nil m gives no model.
func WithModel(m layer.Model) Option {
	return func(e *Engine) error {
		e.model = m
		return nil
	}
}

// applyModel sets the layer deadline for a model, if the engine has one,
// after every option has been applied. The model itself reaches the layers
// that declare layer.Layer.UsesModel through their pass (see runLayers).
func (e *Engine) applyModel() {
	if e.model == nil {
		return
	}
	if e.layerTimeout == DefaultLayerTimeout {
		e.layerTimeout = LLMLayerTimeout
	}
}

// Model returns the name of the engine's model, or "" when it has none.
func (e *Engine) Model() string {
	if e.model == nil {
		return ""
	}
	return e.model.Model()
}
