import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '../ui/button'
import { currentTheme, setTheme } from '../../lib/theme'

export function ThemeToggle() {
  const [theme, setLocal] = useState(currentTheme)
  const next = theme === 'dark' ? 'light' : 'dark'
  return (
    <Button
      variant="ghost"
      aria-label={`Switch to ${next} theme`}
      onClick={async () => {
        try {
          setLocal(await setTheme(next))
        } catch (e) {
          toast.error((e as Error).message)
        }
      }}
    >
      {theme === 'dark' ? '☀︎ Light' : '☾ Dark'}
    </Button>
  )
}
