// The engine files as modules, `import wasmUrl from 'tensorcast/tensorcast.wasm'`:
// a bundler's file loader (esbuild --loader:.wasm=file, webpack's asset/resource)
// turns the import into the address it emitted the file at, for init({ wasmUrl }).
declare const wasmUrl: string;
export default wasmUrl;
