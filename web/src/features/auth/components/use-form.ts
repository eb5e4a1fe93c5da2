import { useState, type FormEvent } from 'react'

// A tiny form helper: field values, per-field errors, a pending flag and submit handling.
export function useForm<T extends Record<string, string>>(initial: T, validate: (v: T) => Partial<Record<keyof T, string>>) {
  const [values, setValues] = useState(initial)
  const [errors, setErrors] = useState<Partial<Record<keyof T, string>>>({})
  const [pending, setPending] = useState(false)
  const bind = (name: keyof T) => ({
    name: String(name),
    value: values[name],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
    error: errors[name],
  })
  const onSubmit = (run: (v: T) => Promise<void>) => async (e: FormEvent) => {
    e.preventDefault()
    const found = validate(values)
    setErrors(found)
    if (Object.values(found).some(Boolean)) return
    setPending(true)
    try {
      await run(values)
    } finally {
      setPending(false)
    }
  }
  return { values, bind, onSubmit, pending }
}

export const isEmail = (s: string) => /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(s)
export const MIN_PASSWORD = 8
