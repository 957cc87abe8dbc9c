/**
 * A type with every field and array read-only, all the way down. A view schema's inferred type is
 * mutable (zod's); the use cases hand out read-only results, so each view's type is its schema's
 * type through this.
 */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer Item)[]
    ? readonly DeepReadonly<Item>[]
    : T extends object
      ? { readonly [Key in keyof T]: DeepReadonly<T[Key]> }
      : T
