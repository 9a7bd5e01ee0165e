import { restoreStyles } from './layout/keptStyles';
import { preloadSession } from './preload';

// Before the app's code runs (react-admin and MUI take a while to evaluate), the styles the last visit generated are put
// back for Emotion's cache to take in (layout/keptStyles.ts), and a signed-in start sets off what the opened screen
// needs: its list's rows and the list's code. index.html already names every chunk of the first screen, so the browser
// fetches them beside this script.
restoreStyles();
preloadSession(window.location);
void import('./start');
