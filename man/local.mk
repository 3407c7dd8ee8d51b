# The library's manual (section 3; the tools' pages come with the tools).
# devimg(3) is the overview; every other page documents one group of
# functions and names them all in its NAME section. make install adds, for
# each further name there, a page that is one ".so" request for the
# group's page, so that "man devimg_ctx_ref" shows devimg_ctx_new(3);
# tests/pkg/man.sh checks that every function of devimg.h is on one page.
man3_pages = \
	man/devimg.3 \
	man/__sycl_register_lib.3 \
	man/devimg_strerror.3 \
	man/devimg_registry_images.3 \
	man/devimg_image_ref.3 \
	man/devimg_image_spec_consts.3 \
	man/devimg_select_image.3 \
	man/devimg_image_requirements.3 \
	man/devimg_ctx_new.3 \
	man/devimg_queue_new.3 \
	man/devimg_kernel_new.3 \
	man/devimg_bundle_new.3 \
	man/devimg_launch.3 \
	man/devimg_global_find.3
dist_man_MANS += $(man3_pages)

# Prints "name page.3" for every further name of every page's NAME section.
man3_links = \
	for p in $(man3_pages); do \
	  page=$$(basename "$$p"); \
	  sed -n '/^\.SH NAME/,/^\.SH /p' "$(srcdir)/$$p" | sed -e '1d' -e '$$d' | \
	    tr '\n' ' ' | sed -e 's/\\-.*//' -e 's/,/ /g' | tr -s ' ' '\n' | \
	    while read -r name; do \
	      test -z "$$name" || test "$$name.3" = "$$page" || \
	        echo "$$name $$page"; \
	    done; \
	done

install-data-local: install-man3-links
uninstall-local: uninstall-man3-links

.PHONY: install-man3-links uninstall-man3-links
install-man3-links:
	@$(NORMAL_INSTALL)
	@$(MKDIR_P) '$(DESTDIR)$(man3dir)'
	@$(man3_links) | while read -r name page; do \
	  echo " .so man3/$$page > $(DESTDIR)$(man3dir)/$$name.3"; \
	  echo ".so man3/$$page" >'$(DESTDIR)$(man3dir)'/"$$name.3" || exit 1; \
	done

uninstall-man3-links:
	@$(NORMAL_UNINSTALL)
	@$(man3_links) | while read -r name page; do \
	  echo " rm -f $(DESTDIR)$(man3dir)/$$name.3"; \
	  rm -f '$(DESTDIR)$(man3dir)'/"$$name.3"; \
	done
