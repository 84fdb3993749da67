// Files the bundler embeds: `with { type: "text" }` gives the contents, `with { type: "file" }` a path.
declare module "*.sql" {
  const text: string
  export default text
}
declare module "*.wasm" {
  const path: string
  export default path
}
