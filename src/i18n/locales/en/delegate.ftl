# delegate.md §10.3: the localisable delegate texts. English is the source catalog.

cli-delegate-error-invalid-semantic-completion = Agent '{ $agent_name }' failed: model provider returned an invalid semantic completion.

delegate-provider-fallback-warning = Warning: The delegated agent recovered through a provider fallback. Provider failure details were logged and omitted from this result.

delegate-provider-fallback-header = [Agent '{ $agent_name }' (requested: { $requested_provider }/{ $requested_model }; served: { $actual_provider }/{ $actual_model })]

delegate-provider-fallback-header-agentic = [Agent '{ $agent_name }' (requested: { $requested_provider }/{ $requested_model }; served: { $actual_provider }/{ $actual_model }, agentic)]

turn-tool-protocol-strict-mixed-error = Strict tool parsing cannot run a fallback chain that mixes native-tool and text-only candidates. Configure every reachable candidate to use the same tool protocol, or set strict_tool_parsing to false.
