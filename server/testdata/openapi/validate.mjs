// Validates the OpenAPI document on stdin with swagger-parser: the OpenAPI
// 3.1 schema, then every $ref resolved. Prints "ok" and exits 0, or prints
// the validator's error and exits 1. Used by server's TestOpenAPIValidator.
import SwaggerParser from "@apidevtools/swagger-parser";

let text = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) text += chunk;
try {
  const api = await SwaggerParser.validate(JSON.parse(text));
  console.log("ok", api.openapi, Object.keys(api.paths).length);
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
