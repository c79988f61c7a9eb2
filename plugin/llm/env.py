"""The environment variables that configure the language model (read without loading the HTTP client)."""

URL_ENV = "RAGPROV_LLM_URL"
MODEL_ENV = "RAGPROV_LLM_MODEL"
KEY_ENV = "RAGPROV_LLM_API_KEY"
