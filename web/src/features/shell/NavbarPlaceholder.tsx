import logoUrl from '../../assets/logo.svg';
import { config } from '../../lib/config';
import classes from './Navbar.module.css';

/** The bar's frame while the navbar chunk loads: same height, so nothing jumps. */
export function NavbarPlaceholder() {
  return (
    <header className={classes.header} aria-busy="true">
      <div className={classes.bar}>
        <div className={classes.start}>
          <span className={classes.brand}>
            <img src={logoUrl} alt="" width={30} height={30} />
            <span className={classes.productName}>{config.productName}</span>
          </span>
        </div>
      </div>
    </header>
  );
}
