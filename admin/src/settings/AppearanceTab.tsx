import { FormControl, FormControlLabel, FormLabel, Radio, RadioGroup, Typography } from '@mui/material';
import { useTheme } from 'react-admin';

/** 'Aparência': light (the default) or dark, remembered in this browser. */
export function AppearanceTab() {
  const [theme, setTheme] = useTheme();
  const mode = theme === 'dark' ? 'dark' : 'light';
  return (
    <FormControl>
      <FormLabel id="appearance-label">
        <Typography variant="h6" component="h2">
          Aparência
        </Typography>
      </FormLabel>
      <RadioGroup
        aria-labelledby="appearance-label"
        value={mode}
        onChange={(event) => setTheme(event.target.value as 'light' | 'dark')}
      >
        <FormControlLabel value="light" control={<Radio />} label="Modo claro (padrão)" />
        <FormControlLabel value="dark" control={<Radio />} label="Modo escuro" />
      </RadioGroup>
    </FormControl>
  );
}
